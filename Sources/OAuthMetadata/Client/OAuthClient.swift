public import ATProtoPermissions
public import Foundation
import HTTPTransport
import WireFormat

/// Who the client is to the authorization server: its `client_id`, redirect URI and scope (atproto.com/specs/oauth, Clients).
public struct OAuthClient: Sendable, Hashable {
    /// The `client_id` sent with PAR, token and revocation requests.
    public let clientID: String
    /// The redirect URI this sign-in uses; sent in the PAR and again, identical, in the token request.
    public let redirectURI: URL
    /// The scope requested, in canonical form (atproto.com/specs/permission); always contains `atproto`.
    public let scope: String
    /// How the client authenticates at the authorization server.
    public let authentication: Authentication

    /// How a client authenticates at the authorization server (atproto.com/specs/oauth, Client Authentication).
    public enum Authentication: Sendable, Hashable {
        /// A public client: `token_endpoint_auth_method` `none`.
        case none
        /// A confidential client: `private_key_jwt` with the key of the store's client key set that has this `kid`.
        case privateKeyJWT(keyID: String)
    }

    private init(clientID: String, redirectURI: URL, scope: String, authentication: Authentication = .none) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scope = scope
        self.authentication = authentication
    }

    /// The scope requested, parsed.
    public var permissions: ScopeSet { ScopeSet(granted: scope) }

    /// The loopback development client (RFC 8252 §7.3, AT Protocol OAuth "localhost client").
    ///
    /// `client_id` is `http://localhost?redirect_uri=<enc>&scope=<enc>`: host exactly `localhost`, no port, no path.
    /// The registered redirect URI has no port unless `registeringPort`, so the server accepts the listener's actual
    /// port (RFC 8252 §7.3).
    /// - Parameters:
    ///   - redirectURI: where the listener waits, `http://127.0.0.1:<port>/<path>` (never `localhost`).
    ///   - scope: the scope to request: `atproto` and any permission scopes; `atproto` is added when missing.
    ///   - registeringPort: whether the `client_id`'s redirect URI keeps the port, for a listener on a fixed port
    ///     and servers that compare registered redirect URIs exactly (the reference server ignores loopback ports).
    /// - Returns: the client.
    /// - Throws: ``MetadataError`` when the redirect URI is not a loopback IP `http://` URI; `PermissionError` naming
    ///   the first token of `scope` that is not a permission scope.
    public static func loopback(
        redirectURI: URL,
        scope: String = "atproto transition:generic",
        registeringPort: Bool = false
    ) throws -> OAuthClient {
        guard redirectURI.scheme == "http", let host = redirectURI.host, ClientMetadata.isLoopbackIP(host) else {
            throw MetadataError.invalidClientMetadata(
                field: "redirect_uri",
                reason: "the loopback client redirects to http://127.0.0.1 or http://[::1] only"
            )
        }
        let scope = try normalizedScope(scope)
        var registered = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false) ?? URLComponents()
        if !registeringPort { registered.port = nil }
        registered.query = nil
        let registeredURI = registered.string ?? "http://127.0.0.1/"
        let clientID =
            "http://localhost?"
            + FormEncoding.encode([("redirect_uri", registeredURI), ("scope", scope)])
        return OAuthClient(clientID: clientID, redirectURI: redirectURI, scope: scope)
    }

    /// A client described by a hosted metadata document (see `client-metadata.json`).
    ///
    /// - Parameters:
    ///   - metadata: the validated document.
    ///   - redirectURI: one of its `redirect_uris`; for a loopback entry, the listener's URI with any port.
    ///   - scope: the scope to request; each of its permissions must be one of the document's.
    ///   - allowHTTPLoopback: development only: accept an `http://` loopback `client_id`.
    ///   - clientKey: for a confidential client's document, the key that signs its assertions, which the document
    ///     must publish.
    /// - Returns: the client.
    /// - Throws: ``MetadataError`` when the document is invalid, or the redirect URI or scope is not registered, or a
    ///   confidential client's key is missing or not in its inline `jwks`; `PermissionError` naming the first token of
    ///   `scope` that is not a permission scope.
    public static func hosted(
        _ metadata: ClientMetadata,
        redirectURI: URL,
        scope: String? = nil,
        allowHTTPLoopback: Bool = false,
        clientKey: ClientKey? = nil
    ) throws -> OAuthClient {
        try metadata.validate(allowHTTPLoopback: allowHTTPLoopback)
        guard metadata.allowsRedirect(to: redirectURI) else {
            let listed = metadata.redirectURIs.prefix(5).map { TerminalText.sanitized($0, limit: 200) }
            let loopback = redirectURI.scheme == "http" && ClientMetadata.isLoopbackIP(redirectURI.host ?? "")
            // `redirect_uri`, the request's: the document's own `redirect_uris` may be valid.
            throw MetadataError.invalidClientMetadata(
                field: "redirect_uri",
                reason: "\(redirectURI.absoluteString) is not one of the document's redirect URIs ("
                    + listed.joined(separator: ", ") + (metadata.redirectURIs.count > 5 ? ", …" : "") + ")"
                    + (loopback
                        ? "; a loopback one that names no port matches any port, and only its own path (RFC 8252 §7.3)"
                        : "")
            )
        }
        let requested = try requestedScope(scope, in: metadata)
        guard metadata.isConfidential else {
            return OAuthClient(clientID: metadata.clientID, redirectURI: redirectURI, scope: requested)
        }
        guard let clientKey else {
            throw MetadataError.invalidClientMetadata(
                field: "token_endpoint_auth_method",
                reason: "the document is a confidential client's (private_key_jwt), and no client key was given"
            )
        }
        if let keys = metadata.jwks, !clientKey.isPublished(in: keys) {
            throw Self.unpublished(clientKey)
        }
        return OAuthClient(
            clientID: metadata.clientID,
            redirectURI: redirectURI,
            scope: requested,
            authentication: .privateKeyJWT(keyID: clientKey.keyID)
        )
    }

    /// The key is not among the keys the client publishes, so the authorization server would refuse its assertions.
    package static func unpublished(_ key: ClientKey) -> MetadataError {
        MetadataError.invalidClientMetadata(
            field: "jwks",
            reason: "the client key \(key.keyID) is not among the keys the document publishes; publish its JWKS "
                + "(atoauth client keygen prints it) and give servers 10 minutes to see it"
        )
    }

    /// Whether this is the loopback development client.
    public var isLoopback: Bool { clientID.hasPrefix("http://localhost") }

    /// The scope a client of `metadata` requests for `scope` (the document's own when `nil`): `atproto` added when
    /// missing, each permission spelled as the document declares it.
    ///
    /// - Throws: ``MetadataError`` naming the first permission the document does not declare; `PermissionError`
    ///   naming the first token of `scope` that is not a permission scope.
    package static func requestedScope(_ scope: String?, in metadata: ClientMetadata) throws -> String {
        try documentSpelling(of: normalizedScope(scope ?? metadata.scope), in: metadata)
    }

    /// The requested permissions, each spelled as the document declares it.
    ///
    /// The reference authorization server compares each requested token with the document's tokens as strings, so
    /// `repo:app.bsky.feed.post` is refused when the document says `repo?collection=app.bsky.feed.post`.
    /// - Throws: ``MetadataError`` naming the first permission the document does not declare.
    private static func documentSpelling(of requested: String, in metadata: ClientMetadata) throws -> String {
        // ClientMetadata.validate() parsed the document's scope strictly; permissions compare by canonical form.
        let declared = metadata.scope.split(separator: " ").map(String.init)
        let spelled = try ScopeSet(granted: requested).permissions.map { permission in
            guard let token = declared.first(where: { (try? Permission(parsing: $0)) == permission }) else {
                let allowed = ScopeSet(granted: metadata.scope)
                throw MetadataError.invalidClientMetadata(
                    field: "scope",
                    reason: "\(permission) is not among the document's permissions “\(allowed)”"
                )
            }
            return token
        }
        return spelled.joined(separator: " ")
    }

    /// The canonical form of a requested scope, `atproto` first when it was missing.
    static func normalizedScope(_ scope: String) throws(PermissionError) -> String {
        let requested = try ScopeSet(requested: scope)
        guard requested.contains(.atproto) else { return ScopeSet([.atproto] + requested.permissions).description }
        return requested.description
    }
}
