import ATProtoPermissions
public import Foundation
import HTTPTransport
import WireFormat

/// A hosted client metadata document (atproto.com/specs/oauth, Clients): a native app's (a public client) or a web
/// service's (a confidential client, `private_key_jwt`).
///
/// ``validate(allowHTTPLoopback:)`` applies every rule the document's kind must meet, naming the failed field; it
/// accepts nothing ``ClientMetadataCheck`` reports a problem in, which lists every problem of any client's document.
public struct ClientMetadata: Sendable, Hashable, Codable {
    /// The document's own https URL.
    public var clientID: String
    /// `native` for an app, `web` for a confidential client.
    public var applicationType: String
    /// Must include `authorization_code` and `refresh_token`.
    public var grantTypes: [String]
    /// Must include `code`.
    public var responseTypes: [String]
    /// Space-separated; must contain `atproto`.
    public var scope: String
    /// Loopback IP URIs or a private-use scheme equal to the reversed `client_id` host.
    public var redirectURIs: [String]
    /// `none` for a public client, `private_key_jwt` for a confidential one.
    public var tokenEndpointAuthMethod: String
    /// A confidential client's assertion algorithm: `ES256`.
    public var tokenEndpointAuthSigningAlg: String?
    /// A confidential client's public keys, inline; exactly one of this and ``jwksURI``.
    public var jwks: ClientJWKS?
    /// Where a confidential client's public keys are published (https); exactly one of this and ``jwks``.
    public var jwksURI: String?
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
        case tokenEndpointAuthSigningAlg = "token_endpoint_auth_signing_alg"
        case jwks
        case jwksURI = "jwks_uri"
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
            // The member that could not be decoded, as the checker words it, rather than the whole document.
            let problems = ClientMetadataCheck.problems(
                in: json,
                fetchedFrom: expectedClientID,
                allowHTTPLoopback: allowHTTPLoopback
            )
            let member = Self.undecodedMember(error)
            let problem = problems.first { $0.field == member } ?? problems.first
            throw MetadataError.invalidClientMetadata(
                field: problem?.field ?? "document",
                reason: problem?.problem ?? "it is not a client metadata JSON object"
            )
        }
        if let expectedClientID, clientID != expectedClientID {
            throw MetadataError.invalidClientMetadata(
                field: "client_id",
                reason: "it is \(TerminalText.sanitized(clientID, limit: 200)), not the document's URL "
                    + expectedClientID
            )
        }
        try validate(allowHTTPLoopback: allowHTTPLoopback)
        // The members this type does not keep (logo_uri, a key's private members) and the size, on the document itself.
        let problems = ClientMetadataCheck.problems(
            in: json,
            fetchedFrom: expectedClientID,
            allowHTTPLoopback: allowHTTPLoopback
        )
        if let problem = problems.first { throw invalid(problem.field, problem.problem) }
    }

    /// The document member a decoding failure concerns, such as `scope` for a number where a string goes.
    private static func undecodedMember(_ error: any Error) -> String? {
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.first?.stringValue
        case .keyNotFound(let key, let context):
            context.codingPath.first?.stringValue ?? key.stringValue
        default:
            nil
        }
    }

    /// Whether the document describes a confidential client, which authenticates with `private_key_jwt`.
    public var isConfidential: Bool { tokenEndpointAuthMethod == "private_key_jwt" }

    /// Checks every rule for the document's kind; `allowHTTPLoopback` as for
    /// ``init(json:expectedClientID:allowHTTPLoopback:)``.
    public func validate(allowHTTPLoopback: Bool = false) throws {
        guard let url = URL(string: clientID), let host = url.host, !host.isEmpty,
            url.scheme == "https" || (allowHTTPLoopback && url.scheme == "http" && Self.isLoopbackIP(host)),
            url.query == nil, url.fragment == nil, url.user == nil, url.hasUsablePort
        else {
            throw invalid("client_id", "it must be an https URL without query, fragment or user info, on port 1–65535")
        }
        if isConfidential {
            try validateConfidential(developmentClient: url.scheme == "http")
        } else {
            guard applicationType == "native" else { throw invalid("application_type", "it must be native") }
            guard tokenEndpointAuthMethod == "none" else {
                throw invalid(
                    "token_endpoint_auth_method",
                    "a public client uses none, a confidential one private_key_jwt"
                )
            }
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
        if !isConfidential {
            let reversedHost = host.split(separator: ".").reversed().joined(separator: ".")
            for uri in redirectURIs {
                try checkRedirect(uri, reversedHost: reversedHost)
            }
        }
        // Every rule of the profile's check too, so that nothing accepted here is a problem there.
        if let problem = ClientMetadataCheck.problems(in: self, allowHTTPLoopback: allowHTTPLoopback).first {
            throw invalid(problem.field, problem.problem)
        }
    }

    /// A confidential client: a web application signing ES256 assertions with keys it publishes one way, and https
    /// redirects (an http loopback one only for a development client served from loopback).
    private func validateConfidential(developmentClient: Bool) throws {
        // A native app cannot keep a private key: its document is refused for the method, as the check reports it.
        guard applicationType != "native" else {
            throw invalid(
                "token_endpoint_auth_method",
                "a native app is a public client, which uses none; private_key_jwt is for a web service"
            )
        }
        guard applicationType == "web" else {
            throw invalid("application_type", "a confidential client is a web application (web)")
        }
        guard tokenEndpointAuthSigningAlg == "ES256" else {
            throw invalid("token_endpoint_auth_signing_alg", "a confidential client signs its assertions with ES256")
        }
        switch (jwks, jwksURI) {
        case (nil, nil): throw invalid("jwks", "a confidential client publishes its keys in jwks or jwks_uri")
        case (.some, .some): throw invalid("jwks", "give jwks or jwks_uri, not both")
        case (let keys?, nil):
            guard !keys.keys.isEmpty else { throw invalid("jwks", "it holds no key") }
            guard keys.keys.allSatisfy({ !($0.kid ?? "").isEmpty }) else {
                throw invalid("jwks", "every key needs a kid")
            }
        case (nil, let location?):
            guard let url = URL(string: location), url.host?.isEmpty == false,
                url.scheme == "https"
                    || (developmentClient && url.scheme == "http" && Self.isLoopbackIP(url.host ?? ""))
            else { throw invalid("jwks_uri", "it must be an https URL") }
        }
        guard !redirectURIs.isEmpty else { throw invalid("redirect_uris", "it needs at least one redirect URI") }
        for uri in redirectURIs {
            guard let components = URLComponents(string: uri), components.host?.isEmpty == false,
                components.scheme == "https"
                    || (developmentClient && components.scheme == "http" && Self.isLoopbackIP(components.host ?? ""))
            else { throw invalid("redirect_uris", "“\(uri)”: a web client redirects to https URLs") }
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

    private func invalid(_ field: String, _ reason: String) -> MetadataError {
        MetadataError.invalidClientMetadata(field: field, reason: reason)
    }
}

/// A JSON Web Key Set as a client metadata document publishes it (RFC 7517 §5).
public struct ClientJWKS: Sendable, Hashable, Codable {
    /// The keys.
    public var keys: [PublicJWK]

    /// Creates a set.
    public init(keys: [PublicJWK]) {
        self.keys = keys
    }
}

/// A public key of a ``ClientJWKS``, as far as a client checks it (RFC 7517 §4, RFC 7518 §6.2.1); read from a
/// document, never made by hand.
public struct PublicJWK: Sendable, Hashable, Codable {
    /// The key type, `EC` for ES256.
    public var kty: String
    /// The curve, `P-256` for ES256.
    public var crv: String?
    /// The x coordinate, base64url.
    public var x: String?
    /// The y coordinate, base64url.
    public var y: String?
    /// The key's name, which sessions are bound to.
    public var kid: String?
    /// The algorithm, `ES256`, when given.
    public var alg: String?
    /// The use, `sig`, when given.
    public var use: String?
}
