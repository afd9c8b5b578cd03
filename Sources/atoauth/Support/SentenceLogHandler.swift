import Failures
import Foundation
import Logging

/// Without `-v`, the log records that reach a person (warnings and errors) are printed as sentences on stderr,
/// `Warning: …`, with no timestamp, level or label; `-v` keeps swift-log's full records.
struct SentenceLogHandler: LogHandler {
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let prefix = event.level >= .error ? "Error" : "Warning"
        var text = "\(event.message)"
        if let first = text.first, first.isLowercase { text = first.uppercased() + text.dropFirst() }
        Output.message("\(prefix): \(Sentence.ended(text))")
    }
}
