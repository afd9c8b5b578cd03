import Foundation

/// Validates a client metadata document (atproto OAuth "Client ID Metadata Document"), configured or fetched from a
/// loopback address, for a public client (`none`) or a confidential one (`private_key_jwt`, see
/// ``ConfidentialClientMetadata``), as the authorization server would after fetching it.
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
        let authentication = try ConfidentialClientMetadata.authentication(
            metadata,
            clientID: clientID,
            applicationType: applicationType
        )
        guard metadata["dpop_bound_access_tokens"] as? Bool == true else {
            throw Refusal(reason: "dpop_bound_access_tokens must be true")
        }
        guard (metadata["grant_types"] as? [String])?.contains("authorization_code") == true,
            (metadata["response_types"] as? [String])?.contains("code") == true
        else {
            throw Refusal(reason: "grant_types must include authorization_code and response_types code")
        }
        try refuseUnsupportedMembers(metadata)
        guard let scope = metadata["scope"] as? String else {
            throw Refusal(reason: "scope must be present and contain atproto")
        }
        let scopes = try OAuthScope.registered(scope)
        guard let redirectURIs = metadata["redirect_uris"] as? [String], !redirectURIs.isEmpty else {
            throw Refusal(reason: "redirect_uris must be a non-empty array")
        }
        let host = URLComponents(string: clientID)?.host ?? ""
        let isNative = applicationType == "native"
        let isLoopbackClient = ClientResolver.isLoopbackIP(clientID)
        for uri in redirectURIs {
            try checkRedirectURI(uri, clientHost: host, isNative: isNative, isLoopbackClient: isLoopbackClient)
        }
        return ClientRegistration(
            clientID: clientID,
            kind: isNative ? .native : .web,
            redirectURIs: redirectURIs,
            scopes: scopes,
            authentication: authentication,
            presentation: ClientPresentation(metadata: metadata)
        )
    }

    /// Refuses, in the reference server's words, the members it does not support: OpenID Connect members, a
    /// `subject_type` other than `public`, encrypted authorization responses, mTLS-bound tokens and authorization
    /// details types; and a `client_name` that is not a string, which its schema refuses.
    private static func refuseUnsupportedMembers(_ metadata: [String: Any]) throws(ClientResolver.Refusal) {
        typealias Refusal = ClientResolver.Refusal
        let openIDConnect = [
            "default_max_age", "userinfo_signed_response_alg", "id_token_signed_response_alg",
            "userinfo_encrypted_response_alg",
        ]
        if let name = openIDConnect.first(where: { metadata[$0] != nil && !(metadata[$0] is NSNull) }) {
            throw Refusal(reason: "Unsupported \"\(name)\" parameter")
        }
        if let subjectType = metadata["subject_type"], !(subjectType is NSNull), subjectType as? String != "public" {
            throw Refusal(reason: "Only \"public\" subject_type is supported")
        }
        if let encryption = metadata["authorization_encrypted_response_enc"], !(encryption is NSNull) {
            throw Refusal(reason: "Encrypted authorization response is not supported")
        }
        if metadata["tls_client_certificate_bound_access_tokens"] as? Bool == true {
            throw Refusal(reason: "Mutual-TLS bound access tokens are not supported")
        }
        if let types = metadata["authorization_details_types"] as? [Any], !types.isEmpty {
            throw Refusal(reason: "authorization_details_types are not supported")
        }
        if let name = metadata["client_name"], !(name is String) {
            throw Refusal(reason: "client_name must be a string")
        }
    }

    /// Checks one registered redirect URI.
    ///
    /// Native: a loopback IP or a private-use scheme that is the reversed client host, with one slash (RFC 8252
    /// §7.1). Web: `https` on the client's host; for development, when the `client_id` itself is an `http` loopback
    /// URL, also an `http` URL to 127.0.0.1 or [::1].
    private static func checkRedirectURI(
        _ uri: String,
        clientHost: String,
        isNative: Bool,
        isLoopbackClient: Bool
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
        } else if isLoopbackClient, scheme == "http" {
            try ClientResolver.checkLoopbackRedirectURI(uri)
        } else {
            guard scheme == "https", components.host == clientHost else {
                throw ClientResolver.Refusal(reason: "web redirect URI \(uri) must be https on \(clientHost)")
            }
        }
    }
}
