import ATProtoPermissions
public import Foundation
import HTTPTransport

/// A hosted client metadata document for a native app (atproto.com/specs/oauth, Clients; AT Protocol OAuth "client metadata").
///
/// ``validate()`` applies every rule a native public client's document must meet, naming the failed field.
public struct ClientMetadata: Sendable, Hashable, Codable {
    /// The document's own https URL.
    public var clientID: String
    /// `native` for an app.
    public var applicationType: String
    /// Must include `authorization_code` and `refresh_token`.
    public var grantTypes: [String]
    /// Must include `code`.
    public var responseTypes: [String]
    /// Space-separated; must contain `atproto`.
    public var scope: String
    /// Loopback IP URIs or a private-use scheme equal to the reversed `client_id` host.
    public var redirectURIs: [String]
    /// `none`: a public client.
    public var tokenEndpointAuthMethod: String
    /// Must be `true`.
    public var dpopBoundAccessTokens: Bool
    /// A display name.
    public var clientName: String?
    /// The app's home page.
    public var clientURI: String?

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case applicationType = "application_type"
        case grantTypes = "grant_types"
        case responseTypes = "response_types"
        case scope
        case redirectURIs = "redirect_uris"
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case dpopBoundAccessTokens = "dpop_bound_access_tokens"
        case clientName = "client_name"
        case clientURI = "client_uri"
    }

    /// Decodes and validates a document; `expectedClientID` is the URL it was fetched from.
    ///
    /// With `allowHTTPLoopback` (development only), a `client_id` of `http://127.0.0.1` or `http://[::1]` is accepted
    /// too, so a document can be tried on this machine before it is deployed.
    public init(json: Data, expectedClientID: String? = nil, allowHTTPLoopback: Bool = false) throws {
        do {
            self = try JSONDecoder().decode(ClientMetadata.self, from: json)
        } catch {
            throw OAuthError.invalidClientMetadata(field: "document", reason: "it is not a client metadata JSON object")
        }
        if let expectedClientID, clientID != expectedClientID {
            throw OAuthError.invalidClientMetadata(field: "client_id", reason: "it differs from the document's URL")
        }
        try validate(allowHTTPLoopback: allowHTTPLoopback)
    }

    /// Checks every rule for a native app's document; `allowHTTPLoopback` as for ``init(json:expectedClientID:allowHTTPLoopback:)``.
    public func validate(allowHTTPLoopback: Bool = false) throws {
        guard let url = URL(string: clientID), let host = url.host, !host.isEmpty,
            url.scheme == "https" || (allowHTTPLoopback && url.scheme == "http" && Self.isLoopbackIP(host)),
            url.query == nil, url.fragment == nil, url.user == nil, url.hasUsablePort
        else {
            throw invalid("client_id", "it must be an https URL without query, fragment or user info, on port 1–65535")
        }
        guard applicationType == "native" else { throw invalid("application_type", "it must be native") }
        guard tokenEndpointAuthMethod == "none" else {
            throw invalid("token_endpoint_auth_method", "a public client uses none")
        }
        guard dpopBoundAccessTokens else { throw invalid("dpop_bound_access_tokens", "it must be true") }
        guard grantTypes.contains("authorization_code"), grantTypes.contains("refresh_token") else {
            throw invalid("grant_types", "it must include authorization_code and refresh_token")
        }
        guard responseTypes.contains("code") else { throw invalid("response_types", "it must include code") }
        do {
            guard try ScopeSet(requested: scope).contains(.atproto) else {
                throw invalid("scope", "it must contain atproto")
            }
        } catch let error as PermissionError {
            throw invalid("scope", error.description)
        }
        guard !redirectURIs.isEmpty else { throw invalid("redirect_uris", "it needs at least one redirect URI") }
        let reversedHost = host.split(separator: ".").reversed().joined(separator: ".")
        for uri in redirectURIs {
            try checkRedirect(uri, reversedHost: reversedHost)
        }
    }

    /// Whether `redirectURI` is registered; a loopback entry without a port matches any port.
    public func allowsRedirect(to redirectURI: URL) -> Bool {
        redirectURIs.contains { registered in
            if registered == redirectURI.absoluteString { return true }
            guard var components = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false),
                components.scheme == "http"
            else { return false }
            components.port = nil
            return components.string == registered
        }
    }

    private func checkRedirect(_ uri: String, reversedHost: String) throws {
        guard let components = URLComponents(string: uri), let scheme = components.scheme else {
            throw invalid("redirect_uris", "“\(uri)” is not a URI")
        }
        if scheme == "http" {
            guard components.url?.hasUsablePort == true else {
                throw invalid("redirect_uris", "“\(uri)”: the port is outside 1–65535")
            }
            guard Self.isLoopbackIP(components.host ?? "") else {
                throw invalid("redirect_uris", "“\(uri)”: http redirects must use 127.0.0.1 or [::1], not a name")
            }
        } else if scheme == "https" {
            throw invalid("redirect_uris", "“\(uri)”: a native app redirects to a loopback IP or a private-use scheme")
        } else {
            guard scheme == reversedHost else {
                throw invalid(
                    "redirect_uris",
                    "“\(uri)”: the scheme must be the reversed client_id host \(reversedHost)"
                )
            }
            let rest = uri.dropFirst(scheme.count + 1)
            guard rest.hasPrefix("/"), !rest.hasPrefix("//") else {
                throw invalid("redirect_uris", "“\(uri)”: a private-use scheme is followed by exactly one slash")
            }
        }
    }

    /// Whether a host is a loopback IP literal, with or without IPv6 brackets (RFC 8252 §7.3).
    static func isLoopbackIP(_ host: String) -> Bool {
        host == "127.0.0.1" || host == "::1" || host == "[::1]"
    }

    private func invalid(_ field: String, _ reason: String) -> OAuthError {
        OAuthError.invalidClientMetadata(field: field, reason: reason)
    }
}
