import Failures
public import Foundation

/// The `error` and `error_description` (OAuth, RFC 6749 §5.2) or `message` (XRPC) of a JSON error answer.
///
/// Both members are `nil` when the body is not a JSON object, is larger than ``maximumSize``, or the member is not
/// a string. The values are as the server sent them: pass them through ``TerminalText`` before showing them.
public struct ServerErrorBody: Sendable, Hashable {
    /// The largest body looked into.
    public static let maximumSize = 64 * 1024

    /// The `error` member.
    public let error: String?
    /// The OAuth `error_description` member.
    public let errorDescription: String?
    /// The XRPC `message` member.
    public let message: String?

    /// Reads the members from a body no larger than `limit` bytes (`nil`: any size).
    public init(_ body: Data, limit: Int? = ServerErrorBody.maximumSize) {
        guard body.count <= limit ?? .max,
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        else {
            self.error = nil
            self.errorDescription = nil
            self.message = nil
            return
        }
        self.error = object["error"] as? String
        self.errorDescription = object["error_description"] as? String
        self.message = object["message"] as? String
    }

    /// The OAuth `error_description`, else the XRPC `message`.
    public var explanation: String? { errorDescription ?? message }

    /// ` The server answered “<error>”: <description>.` for the end of an error message, or `""` without an error.
    ///
    /// Both values must already be safe to print (see ``TerminalText``).
    public static func sentence(error: String?, description: String?) -> String {
        guard let error else { return "" }
        var text = " The server answered “\(error)”"
        if let description { text += ": \(description)" }
        return Sentence.ended(text)
    }
}
