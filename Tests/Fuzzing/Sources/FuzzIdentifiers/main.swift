// The AT Protocol identifiers that arrive in documents, answers and files (atproto.com/specs/did, /handle, /nsid,
// /lexicon): the syntax checks, the stricter rule for DIDs this client resolves, and the handle's resolvability.
//
// Input: one candidate identifier per line.

import ATProtoSyntax
import FuzzSupport

Fuzzer.run { input in
    for text in input.lines {
        if let did = try? DID(validating: text) {
            invariant(DID.isValid(text), "isValid agrees with the initializer")
            invariant(did.rawValue == text, "a DID is kept exactly as written")
            invariant(text.utf8.count <= DID.maximumLength, "a DID is at most 2048 bytes")
            invariant("did:\(did.method):\(did.methodSpecificIdentifier)" == text, "method and identifier make the DID")
            if let target = try? did.resolutionTarget() {
                switch target {
                case .plc: invariant(did.method == .plc, "a PLC target is a did:plc")
                case .web(let host, let port):
                    invariant(did.method == .web, "a web target is a did:web")
                    invariant(port == nil || host == "localhost", "only localhost takes a port")
                    invariant(port.map { (1...65_535).contains($0) } ?? true, "a port is in 1–65535")
                }
            }
        } else {
            invariant(!DID.isValid(text), "isValid agrees with the initializer")
        }

        if let handle = try? Handle(validating: text) {
            invariant(Handle.isValid(text), "isValid agrees with the initializer")
            invariant(handle.rawValue == text.lowercased(), "a handle is lowercased")
            invariant((try? Handle(validating: handle.rawValue)) == handle, "a lowercased handle is the same handle")
            invariant(
                handle.isResolvable == ((try? handle.checkResolvable()) != nil),
                "both resolvability checks agree"
            )
        } else {
            invariant(!Handle.isValid(text), "isValid agrees with the initializer")
        }

        if let nsid = try? NSID(validating: text) {
            invariant(NSID.isValid(text), "isValid agrees with the initializer")
            invariant(text.hasSuffix(".\(nsid.name)"), "the name is the last segment")
            invariant(!nsid.authority.isEmpty, "an NSID has an authority")
        } else {
            invariant(!NSID.isValid(text), "isValid agrees with the initializer")
        }

        do {
            let identifier = try ATIdentifier(validating: text)
            invariant(
                identifier.description == (text.hasPrefix("did:") ? text : text.lowercased()),
                "the identifier is kept"
            )
        } catch {
            invariant(!ATIdentifier.isValid(text), "isValid agrees with the initializer")
            invariantPrintable(error)
        }
    }
}
