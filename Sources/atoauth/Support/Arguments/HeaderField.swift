import ATClient
import ArgumentParser
import Foundation
import WireFormat

/// One `xrpc --header NAME:VALUE` field, checked before anything is sent: the name a token (RFC 9110 §5.1) the
/// client does not set itself, the value printable ASCII, so no line break can start another field (RFC 9110 §5.5).
///
/// An `atproto-proxy` field's value must be a `DID#SERVICE` (``ProxyService``).
struct HeaderField: ArgumentValue, Hashable {
    var name: String
    var value: String

    /// Whether the field is `atproto-proxy`, which goes to the request's proxy rather than its headers.
    var isProxy: Bool { name.lowercased() == "atproto-proxy" }

    init(parsing text: String) throws(InvalidArgument) {
        func refusal(_ subject: String, _ requirement: String) -> InvalidArgument {
            InvalidArgument(value: text, requirement: requirement, subject: subject)
        }
        guard let colon = text.firstIndex(of: ":") else {
            throw refusal(
                "--header",
                "takes NAME:VALUE, such as atproto-accept-labelers:did:plc:ar7c4by46qjdydhdevvrndac; "
                    + "“\(Self.shown(text))” has no colon"
            )
        }
        name = String(text[..<colon])
        value = text[text.index(after: colon)...].trimmingCharacters(in: [" ", "\t"])
        guard MediaType.isToken(name) else {
            throw refusal(
                "--header:",
                "“\(Self.shown(name))” is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"
            )
        }
        let lowercased = name.lowercased()
        if lowercased == "content-type" {
            throw refusal("--header", "cannot set Content-Type; give --content-type TYPE with --input")
        }
        if ["authorization", "dpop"].contains(lowercased) {
            throw refusal(
                "--header",
                "cannot set \(name): atoauth sends the session's DPoP-bound token and a fresh DPoP proof"
            )
        }
        if !isProxy, ATClient.reservedHeaders.contains(lowercased) {
            throw refusal("--header", "cannot set \(name): the HTTP client sets it")
        }
        guard value.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) || $0 == "\t" }) else {
            throw refusal(
                "--header \(name):",
                "the value may hold only printable ASCII, no line break or other control character"
            )
        }
        if isProxy { value = try ProxyService(parsing: value, source: "--header atproto-proxy").rawValue }
    }

    static func shown(_ text: String) -> String {
        TerminalText.sanitized(text, limit: 120)
    }
}
