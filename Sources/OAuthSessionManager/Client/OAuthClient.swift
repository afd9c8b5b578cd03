import ATProtoIdentity
import ATProtoSyntax
public import Foundation
import HTTPTransport
import WireFormat

/// Who the client is to the authorization server: its `client_id`, redirect URI and scope (atproto.com/specs/oauth, Clients).
public struct OAuthClient: Sendable, Hashable {
    /// The `client_id` sent with PAR, token and revocation requests.
    public let clientID: String
    /// The redirect URI this sign-in uses; sent in the PAR and again, identical, in the token request.
    public let redirectURI: URL
    /// The scope requested; always contains `atproto`.
    public let scope: String

    /// The loopback development client (RFC 8252 §7.3, AT Protocol OAuth "localhost client").
    ///
    /// `client_id` is `http://localhost?redirect_uri=<enc>&scope=<enc>`: host exactly `localhost`, no port, no path.
    /// The registered redirect URI has no port, so the server accepts the listener's actual port.
    /// - Parameters:
    ///   - redirectURI: where the listener waits, `http://127.0.0.1:<port>/<path>` (never `localhost`).
    ///   - scope: the scope to request; `atproto` is added when missing.
    /// - Returns: the client.
    /// - Throws: ``OAuthError`` when the redirect URI is not a loopback IP `http://` URI.
    public static func loopback(redirectURI: URL, scope: String = "atproto transition:generic") throws -> OAuthClient {
        guard redirectURI.scheme == "http", let host = redirectURI.host,
            host == "127.0.0.1" || host == "::1" || host == "[::1]"
        else {
            throw OAuthError.invalidClientMetadata(
                field: "redirect_uri",
                reason: "the loopback client redirects to http://127.0.0.1 or http://[::1] only"
            )
        }
        let scope = normalizedScope(scope)
        var registered = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false) ?? URLComponents()
        registered.port = nil
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
    ///   - scope: the scope to request; must lie within the document's scope.
    /// - Returns: the client.
    /// - Throws: ``OAuthError`` when the document is invalid, or the redirect URI or scope is not registered.
    public static func hosted(_ metadata: ClientMetadata, redirectURI: URL, scope: String? = nil) throws -> OAuthClient
    {
        try metadata.validate()
        guard metadata.allowsRedirect(to: redirectURI) else {
            throw OAuthError.invalidClientMetadata(
                field: "redirect_uris",
                reason: "\(redirectURI.absoluteString) is not one of the document's redirect URIs"
            )
        }
        let requested = normalizedScope(scope ?? metadata.scope)
        let allowed = Set(metadata.scope.split(separator: " "))
        guard requested.split(separator: " ").allSatisfy(allowed.contains) else {
            throw OAuthError.invalidClientMetadata(
                field: "scope",
                reason: "“\(requested)” exceeds the document's scope"
            )
        }
        return OAuthClient(clientID: metadata.clientID, redirectURI: redirectURI, scope: requested)
    }

    /// Whether this is the loopback development client.
    public var isLoopback: Bool { clientID.hasPrefix("http://localhost") }

    static func normalizedScope(_ scope: String) -> String {
        var values = scope.split(separator: " ").map(String.init)
        if !values.contains("atproto") { values.insert("atproto", at: 0) }
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }.joined(separator: " ")
    }
}

extension OAuthSessionManager {
    /// Fetches a hosted client metadata document from its `client_id` URL, checks it, and returns the client for
    /// one sign-in (AT Protocol OAuth "Client ID Metadata Document"; draft-ietf-oauth-client-id-metadata-document).
    ///
    /// The fetch is https-only (loopback `http://` in development mode), size-capped and never follows redirects.
    /// - Parameters:
    ///   - clientID: the document's URL, which must equal its `client_id`.
    ///   - redirectURI: one of its `redirect_uris`; for a loopback entry, the listener's URI with any port.
    ///   - scope: the scope to request; must lie within the document's scope. `nil` asks for the document's.
    /// - Returns: the client.
    /// - Throws: ``OAuthError`` when the document is invalid or does not allow the redirect or scope;
    ///   `FetchError` when it cannot be fetched.
    public func hostedClient(clientID: URL, redirectURI: URL, scope: String? = nil) async throws -> OAuthClient {
        let document = try await fetcher.get(clientID, expecting: .metadata)
        let metadata = try ClientMetadata(json: document.body, expectedClientID: clientID.absoluteString)
        return try OAuthClient.hosted(metadata, redirectURI: redirectURI, scope: scope)
    }
}
