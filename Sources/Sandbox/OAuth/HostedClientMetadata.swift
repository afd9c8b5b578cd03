import Foundation

/// Validates a configured client metadata document (atproto OAuth "Client ID Metadata Document") for a public
/// client, as the authorization server would after fetching it.
enum HostedClientMetadata {
    /// The registration described by `document`, which must be the JSON hosted at `clientID`.
    static func registration(clientID: String, document: Data) throws(ClientResolver.Refusal) -> ClientRegistration {
        typealias Refusal = ClientResolver.Refusal
        guard let metadata = JSONBody.decodeObject(document) else {
            throw Refusal(reason: "the client metadata of \(clientID) is not a JSON object")
        }
        guard metadata["client_id"] as? String == clientID else {
            throw Refusal(reason: "the client metadata's client_id is not its own URL \(clientID)")
        }
        let applicationType = metadata["application_type"] as? String ?? "web"
        guard applicationType == "native" || applicationType == "web" else {
            throw Refusal(reason: "application_type must be native or web")
        }
        guard (metadata["token_endpoint_auth_method"] as? String ?? "client_secret_basic") == "none" else {
            throw Refusal(
                reason: "the sandbox only accepts public clients: token_endpoint_auth_method must be none"
            )
        }
        guard metadata["dpop_bound_access_tokens"] as? Bool == true else {
            throw Refusal(reason: "dpop_bound_access_tokens must be true")
        }
        guard (metadata["grant_types"] as? [String])?.contains("authorization_code") == true,
            (metadata["response_types"] as? [String])?.contains("code") == true
        else {
            throw Refusal(reason: "grant_types must include authorization_code and response_types code")
        }
        guard let scope = metadata["scope"] as? String else {
            throw Refusal(reason: "scope must be present and contain atproto")
        }
        let scopes = try OAuthScope.registered(scope)
        guard let redirectURIs = metadata["redirect_uris"] as? [String], !redirectURIs.isEmpty else {
            throw Refusal(reason: "redirect_uris must be a non-empty array")
        }
        let host = URLComponents(string: clientID)?.host ?? ""
        let isNative = applicationType == "native"
        for uri in redirectURIs {
            try checkRedirectURI(uri, clientHost: host, isNative: isNative)
        }
        return ClientRegistration(
            clientID: clientID,
            kind: isNative ? .native : .web,
            redirectURIs: redirectURIs,
            scopes: scopes
        )
    }

    /// Checks one registered redirect URI.
    ///
    /// Native: a loopback IP or a private-use scheme that is the reversed client host, with one slash (RFC 8252
    /// §7.1). Web: `https` on the client's host.
    private static func checkRedirectURI(
        _ uri: String,
        clientHost: String,
        isNative: Bool
    )
        throws(ClientResolver.Refusal)
    {
        guard let components = URLComponents(string: uri), let scheme = components.scheme else {
            throw ClientResolver.Refusal(reason: "redirect URI \(uri) is not a URL")
        }
        if isNative {
            if scheme == "http" {
                try ClientResolver.checkLoopbackRedirectURI(uri)
                return
            }
            let reversedHost = clientHost.split(separator: ".").reversed().joined(separator: ".")
            guard scheme == reversedHost, uri.hasPrefix(scheme + ":/"), !uri.hasPrefix(scheme + "://") else {
                throw ClientResolver.Refusal(
                    reason: "native redirect URI \(uri) must be a loopback IP or \(reversedHost):/path"
                )
            }
        } else {
            guard scheme == "https", components.host == clientHost else {
                throw ClientResolver.Refusal(reason: "web redirect URI \(uri) must be https on \(clientHost)")
            }
        }
    }
}
