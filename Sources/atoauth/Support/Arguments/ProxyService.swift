import ATProtoPermissions
import ATProtoSyntax
import ArgumentParser

/// The `DID#SERVICE` a PDS forwards a call to (`atproto-proxy`; atproto.com/specs/xrpc, Service Proxying), as
/// `xrpc --proxy` takes it, checked with the DID syntax rules (atproto.com/specs/did).
struct ProxyService: ArgumentValue, Hashable {
    /// The reference as it is sent.
    var rawValue: String

    init(parsing text: String) throws(InvalidArgument) {
        try self.init(parsing: text, source: "--proxy")
    }

    /// `text` as a service reference; a refusal names `source`, the option the text came from.
    init(parsing text: String, source: String) throws(InvalidArgument) {
        if let reference = ServiceReference(rawValue: text) {
            rawValue = reference.rawValue
            return
        }
        let parts = text.split(separator: "#", omittingEmptySubsequences: false)
        let example = "such as did:web:api.bsky.app#bsky_appview"
        guard parts.count == 2 else {
            throw InvalidArgument(
                value: text,
                requirement: "takes DID#SERVICE, \(example); “\(HeaderField.shown(text))” is not that",
                subject: source
            )
        }
        do {
            let did = try DID(validating: String(parts[0]))
            guard ServiceReference.canNameService(did) else {
                throw InvalidArgument(
                    value: text,
                    requirement:
                        "“\(HeaderField.shown(did.rawValue))” cannot name a service: only a did:plc or a did:web"
                        + " of a host name can (atproto.com/specs/did), \(example)",
                    subject: source + ":"
                )
            }
        } catch let error as SyntaxError {
            throw InvalidArgument(
                value: text,
                requirement: "invalid DID \(error.reason). It takes DID#SERVICE, \(example)",
                subject: source + ":"
            )
        } catch let error as InvalidArgument {
            throw error
        } catch {}
        throw InvalidArgument(
            value: text,
            requirement:
                "“\(HeaderField.shown(String(parts[1])))” is not a service ID (the part after #, \(example))",
            subject: source + ":"
        )
    }
}
