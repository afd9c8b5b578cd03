import ATProtoSyntax
import ArgumentParser

/// The NSID `xrpc` calls, such as `com.atproto.server.getSession`, read by the syntax rules of ATProtoSyntax.
struct XRPCMethod: ArgumentValue, Hashable {
    var nsid: NSID

    init(parsing text: String) throws(InvalidArgument) {
        do {
            nsid = try NSID(validating: text)
        } catch {
            throw InvalidArgument(value: text, requirement: "is not an NSID such as com.atproto.server.getSession")
        }
    }
}
