import ATOAuthTesting
import Foundation

/// What the scripted AT Protocol world answers: honest by default, and each scenario makes one piece hostile.
///
/// The world runs on one ``LoopbackHTTPServer`` reached under two origins: ``origin`` (`http://127.0.0.1:<port>`)
/// is the PLC directory, the handle resolver, alice's PDS and its authorization server; ``otherOrigin``
/// (`http://localhost:<port>`, the same socket) is a second PDS with its own authorization server, where bob lives.
struct HostileScript: Sendable {
    /// A DID document as the PLC directory serves it.
    struct Document: Sendable {
        /// The `id` the document claims.
        var id: String
        /// The `alsoKnownAs` entries, in order.
        var alsoKnownAs: [String]
        /// The `serviceEndpoint` of the `#atproto_pds` service.
        var pds: String
    }

    /// The protected resource metadata a PDS origin serves.
    struct ProtectedResource: Sendable {
        /// `resource`.
        var resource: String
        /// `authorization_servers`.
        var authorizationServers: [String]
    }

    /// The authorization server metadata an origin serves; the endpoints are absolute URLs.
    struct AuthorizationServer: Sendable {
        /// `issuer`, or `nil` to leave it out.
        var issuer: String?
        /// `authorization_endpoint`.
        var authorizationEndpoint: String
        /// `token_endpoint`.
        var tokenEndpoint: String
        /// `pushed_authorization_request_endpoint`.
        var pushedAuthorizationRequestEndpoint: String
        /// `revocation_endpoint`.
        var revocationEndpoint: String

        /// Honest metadata for the server at `origin`.
        init(origin: String) {
            self.issuer = origin
            self.authorizationEndpoint = "\(origin)/oauth/authorize"
            self.tokenEndpoint = "\(origin)/oauth/token"
            self.pushedAuthorizationRequestEndpoint = "\(origin)/oauth/par"
            self.revocationEndpoint = "\(origin)/oauth/revoke"
        }
    }

    /// The `iss` the authorize endpoint puts in its redirect.
    enum CallbackIssuer: Sendable {
        /// The issuer the request went to.
        case honest
        /// No `iss` at all.
        case omitted
        /// This value instead.
        case claimed(String)
    }

    /// The token endpoint's answer to a valid code.
    struct Tokens: Sendable {
        var accessToken = "hostile-access-token"
        var refreshToken = "hostile-refresh-token"
        var tokenType = "DPoP"
        var scope = "atproto transition:generic"
        /// `sub`; `nil` for the honest answer, the account the PAR's `login_hint` names (alice without a hint).
        var sub: String?
        /// `expires_in` as raw JSON text, so a test can send numbers and values a JSON encoder never writes.
        var expiresIn = "3600"
    }

    static let aliceHandle = "alice.test"
    static let aliceDID = "did:plc:alice234alice234alice234"
    static let bobHandle = "bob.test"
    static let bobDID = "did:plc:bob234bob234bob234bob234"
    static let malloryHandle = "mallory.test"
    static let malloryDID = "did:plc:mallory2mallory2mallory2"

    /// `http://127.0.0.1:<port>`: directory, resolver, alice's PDS and the authorization server sign-in uses.
    let origin: String
    /// `http://localhost:<port>`: bob's PDS and a second authorization server, another issuer.
    let otherOrigin: String

    /// What `com.atproto.identity.resolveHandle` answers: handle → DID.
    var handles: [String: String]
    /// The PLC directory: DID → document.
    var documents: [String: Document]
    /// `/.well-known/oauth-protected-resource` per origin.
    var protectedResources: [String: ProtectedResource]
    /// `/.well-known/oauth-authorization-server` per origin.
    var authorizationServers: [String: AuthorizationServer]
    /// Answers that replace the scripted ones, keyed by origin and path (`http://127.0.0.1:1/x`).
    var overrides: [String: ScriptedResponse] = [:]
    /// Whether PAR, token and revocation requests must carry the server's current DPoP nonce.
    var demandsDPoPNonce = true
    /// Whether PAR, token and revocation answers carry a `DPoP-Nonce` header (the AT Protocol profile requires it).
    var issuesDPoPNonces = true
    /// The `iss` of the redirect back to the client.
    var callbackIssuer = CallbackIssuer.honest
    /// An `error` and `error_description` the authorize endpoint redirects with instead of a code.
    var authorizationError: (code: String, description: String)?
    /// What the token endpoint issues for a valid code.
    var tokens = Tokens()

    /// The honest world on `port`.
    init(port: Int) {
        let origin = "http://127.0.0.1:\(port)"
        let otherOrigin = "http://localhost:\(port)"
        self.origin = origin
        self.otherOrigin = otherOrigin
        self.handles = [Self.aliceHandle: Self.aliceDID, Self.bobHandle: Self.bobDID]
        self.documents = [
            Self.aliceDID: Document(id: Self.aliceDID, alsoKnownAs: ["at://\(Self.aliceHandle)"], pds: origin),
            Self.bobDID: Document(id: Self.bobDID, alsoKnownAs: ["at://\(Self.bobHandle)"], pds: otherOrigin),
        ]
        self.protectedResources = [
            origin: ProtectedResource(resource: origin, authorizationServers: [origin]),
            otherOrigin: ProtectedResource(resource: otherOrigin, authorizationServers: [otherOrigin]),
        ]
        self.authorizationServers = [
            origin: AuthorizationServer(origin: origin),
            otherOrigin: AuthorizationServer(origin: otherOrigin),
        ]
    }
}
