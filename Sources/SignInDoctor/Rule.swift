/// The rules the checks follow, by the section that states each; the metadata rules are the engine's
/// (`MetadataCheck`), which a sign-in's errors cite too.
enum Rule {
    static let handleResolution = "atproto.com/specs/handle, Handle Resolution"
    static let handleBothWays =
        "atproto.com/specs/handle, Handle Resolution (bidirectional); atproto.com/specs/oauth, Identity Authentication"
    static let didDocument = "atproto.com/specs/did, DID Documents"
    static let personalDataServer =
        "atproto.com/specs/did, DID Documents (#atproto_pds); atproto.com/specs/oauth, Security Concerns"
    static let clientMetadata = "atproto.com/specs/oauth, Clients; RFC 7591 §2"
    static let pushedRequest = "RFC 9126 §2"
    static let scopeRequest = "RFC 6749 §3.3; atproto.com/specs/permission"
    static let dpopNonce = "RFC 9449 §8; atproto.com/specs/oauth, DPoP"
    static let clock = "RFC 9449 §11.1; RFC 9110 §6.6.1"
    static let storeFiles = "atoauth's store: directories 0700, files 0600, owned by the user"
    static let sessionLifetime = "atproto.com/specs/oauth, Tokens and Session Lifetime"
    static let identityMoved = "atproto.com/specs/oauth, Identity Authentication"
    static let liveSession = "RFC 6750 §3.1 (invalid_token); atproto.com/specs/oauth, Tokens and Session Lifetime"
}
