package import Foundation
import HTTPTransport
package import OAuthMetadata
import WireFormat

extension SessionManager {
    /// Fetches a hosted client metadata document from its `client_id` URL, checks it, and returns the client for
    /// one sign-in (AT Protocol OAuth "Client ID Metadata Document"; draft-ietf-oauth-client-id-metadata-document).
    ///
    /// The fetch is https-only (loopback `http://` in development mode), size-capped and never follows redirects.
    /// A confidential client's document must publish its signing key; a `jwks_uri` is fetched like the document.
    /// - Parameters:
    ///   - clientID: the document's URL, which must equal its `client_id`.
    ///   - redirectURI: one of its `redirect_uris` (for a loopback entry, the listener's URI with any port); `nil`
    ///     for the document's only one.
    ///   - scope: the scope to request; must lie within the document's scope. `nil` asks for the document's.
    ///   - clientKeyID: for a confidential client, the `kid` of the store's client key to sign with; `nil` for the
    ///     key set's current key.
    ///   - signInKey: for a confidential client, a key not in the store to sign with instead (an operator's key
    ///     file): kept in memory, and added to the store's key set only when the sign-in succeeds.
    /// - Returns: the client.
    /// - Throws: ``SessionError`` when the document is invalid or does not allow the redirect or scope, or a
    ///   confidential client's key is missing or unpublished; `FetchError` when it cannot be fetched.
    package func hostedClient(
        clientID: URL,
        redirectURI: URL?,
        scope: String? = nil,
        clientKeyID: String? = nil,
        signInKey: ClientKey? = nil
    ) async throws -> OAuthClient {
        try await SessionError.carrying { () async throws -> OAuthClient in
            let document = try await fetcher.get(clientID, expecting: .metadata)
            let development = fetcher.configuration.allowHTTPLoopback
            let metadata = try ClientMetadata(
                json: document.body,
                expectedClientID: clientID.absoluteString,
                allowHTTPLoopback: development
            )
            guard let redirectURI = redirectURI ?? Self.onlyRedirect(of: metadata) else {
                throw SessionError.invalidInput(
                    "The client has several redirect URIs (\(metadata.redirectURIs.joined(separator: ", "))); name the "
                        + "one to use, such as the page that shows its own address for pasting (--redirect-uri)."
                )
            }
            var clientKey: ClientKey?
            if metadata.isConfidential {
                let key: ClientKey
                if let signInKey { key = signInKey } else { key = try await signingKey(clientKeyID) }
                if let location = metadata.jwksURI, let url = URL(string: location) {
                    let keys = try await fetcher.get(url, expecting: .metadata).body
                    guard let set = try? JSONDecoder().decode(ClientJWKS.self, from: keys), key.isPublished(in: set)
                    else {
                        throw OAuthClient.unpublished(key)
                    }
                }
                clientKey = key
            }
            let client = try OAuthClient.hosted(
                metadata,
                redirectURI: redirectURI,
                scope: scope,
                allowHTTPLoopback: development,
                clientKey: clientKey
            )
            if metadata.isConfidential, let signInKey { signInKeys[signInKey.keyID] = signInKey }
            return client
        }
    }

    private static func onlyRedirect(of metadata: ClientMetadata) -> URL? {
        guard metadata.redirectURIs.count == 1, let only = metadata.redirectURIs.first else { return nil }
        return URL(string: only)
    }

    /// The client key named by `keyID`, else the store's current signing key.
    private func signingKey(_ keyID: String?) async throws -> ClientKey {
        guard let keyID else { return try await clientKeySet.signingKey(now: now()) }
        guard let key = try await clientKeySet.key(keyID) else {
            throw SessionError.invalidInput(
                "The store has no client key \(keyID): add it with `atoauth client keygen` or give its file."
            )
        }
        return key
    }
}
