import Foundation

/// The `error` and `error_description` (or XRPC `message`) of a JSON error answer, when there are any
/// (RFC 6749 §5.2, atproto.com/specs/xrpc).
struct ServerErrorBody: Sendable, Hashable {
    /// The largest body looked into.
    static let maximumSize = 64 * 1024

    /// The `error` member, when it is a string.
    let error: OAuthError.ServerCode?
    /// The `error_description` member, else the XRPC `message` member, when it is a string.
    let description: String?

    /// Reads the members from a body; both are `nil` when it is not a JSON object.
    init(_ body: Data) {
        guard body.count <= Self.maximumSize,
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        else {
            self.error = nil
            self.description = nil
            return
        }
        self.error = (object["error"] as? String).map { OAuthError.ServerCode(rawValue: $0) }
        self.description = (object["error_description"] as? String) ?? (object["message"] as? String)
    }
}
