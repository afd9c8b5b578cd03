import ATProtoPermissions
import HTTPTransport
import WireFormat

/// A PDS's answer to a call the token's scope does not allow: HTTP 403 with
/// `{"error":"ScopeMissingError","message":"Missing required scope \"<scope>\""}` (atproto.com/specs/permission).
enum ScopeMissingAnswer {
    /// The missing permission the answer names, `.some(nil)` when it names none that parses, `nil` when the answer
    /// is not a `ScopeMissingError`.
    static func missing(in response: HTTPResponse) -> Permission?? {
        guard response.status == 403 else { return nil }
        let body = ServerErrorBody(response.body, limit: 4096)
        guard body.error == "ScopeMissingError" else { return nil }
        guard let message = body.message, let open = message.firstIndex(of: "\""),
            let close = message[message.index(after: open)...].firstIndex(of: "\"")
        else { return .some(nil) }
        return .some(try? Permission(parsing: String(message[message.index(after: open)..<close])))
    }
}
