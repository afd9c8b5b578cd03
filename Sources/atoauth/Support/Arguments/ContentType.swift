import ArgumentParser
import WireFormat

/// A body's media type as `xrpc --content-type` takes it, such as `image/png` (RFC 9110 §8.3.1).
struct ContentType: ArgumentValue, Hashable {
    var text: String

    init(parsing text: String) throws(InvalidArgument) {
        guard MediaType.isValid(text) else {
            throw InvalidArgument(
                value: text,
                requirement:
                    "takes a media type such as image/png; “\(TerminalText.sanitized(text, limit: 80))” is not",
                subject: "--content-type"
            )
        }
        self.text = text
    }
}
