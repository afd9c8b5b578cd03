import Foundation

extension URL {
    /// The URL without query string, fragment, user or password, which can carry secrets; safe to show and log.
    var redactedDescription: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
            return "<unparsable URL>"
        }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string ?? "<unparsable URL>"
    }

    /// Returns `text` with this URL shown as ``redactedDescription`` and its query string replaced by `…`, for texts
    /// from lower layers that may quote the URL or its query.
    func redacting(from text: String) -> String {
        var redacted = text.replacingOccurrences(of: absoluteString, with: redactedDescription)
        for case let secret? in [query(percentEncoded: true), query(percentEncoded: false)] where !secret.isEmpty {
            redacted = redacted.replacingOccurrences(of: secret, with: "…")
        }
        return redacted
    }
}
