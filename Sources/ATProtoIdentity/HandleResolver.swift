public import ATProtoSyntax

/// Resolves a handle to the DID it claims (atproto.com/specs/handle, Handle Resolution); the result still needs the bidirectional check.
public protocol HandleResolver: Sendable {
    /// Returns the DID the handle names. Throws ``IdentityError``: the handle is not resolvable, no method gave a
    /// DID, or the methods disagree.
    func resolve(_ handle: Handle) async throws -> DID
}

extension HandleResolver {
    /// Reads a DID that a resolution method returned, checking its syntax and that this client resolves it.
    static func resolvedDID(_ text: String, for handle: Handle, via method: String) throws -> DID {
        guard let did = try? DID(validating: text), (try? did.resolutionTarget()) != nil else {
            throw IdentityError.handleResolutionFailed(
                "\(method) for \(handle) gave “\(text)”, which is not a supported DID (did:plc or did:web)"
            )
        }
        return did
    }
}
