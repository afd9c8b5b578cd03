import Foundation
import WireFormat

/// Turns a `client_id` into a ``ClientRegistration`` and checks redirect URIs against it.
///
/// The loopback development client (atproto OAuth "Localhost Client Development") is always accepted:
/// `http://localhost` with no port and no path, optionally with `redirect_uri` (repeatable) and `scope` query
/// parameters. An `https` client id is accepted only when its document was configured
/// (``SandboxConfiguration/clientMetadataDocuments``): the sandbox never fetches from the network. For trying a
/// document before deploying it, an `http://127.0.0.1:PORT/…` or `http://[::1]:PORT/…` client id is accepted too:
/// configured, or else fetched by the authorization server from that address (``ClientDocumentCache``); this
/// type resolves the configured ones.
enum ClientResolver {
    /// Why a client or redirect URI is refused, in words.
    struct Refusal: Error, Sendable {
        /// The explanation.
        var reason: String
    }

    /// The redirect URIs a loopback client has when its `client_id` names none.
    static let defaultLoopbackRedirectURIs = ["http://127.0.0.1/", "http://[::1]/"]

    /// The registration of a client id, looking up hosted clients in the configured documents.
    static func resolve(_ clientID: String, documents: [String: Data] = [:]) throws(Refusal) -> ClientRegistration {
        guard let components = URLComponents(string: clientID), let scheme = components.scheme else {
            throw Refusal(reason: "client_id is not a URL")
        }
        // A document configured under an http loopback URL: an app developer trying a document before deploying it.
        if isLoopbackIP(clientID), let document = documents[clientID] {
            return try HostedClientMetadata.registration(clientID: clientID, document: document)
        }
        if scheme == "https" {
            guard let document = documents[clientID] else {
                throw Refusal(
                    reason:
                        "client_id \(clientID) is a hosted client metadata document, which the sandbox does not "
                        + "fetch; configure it in clientMetadataDocuments, serve it at http://127.0.0.1:PORT/… "
                        + "(fetched), or use the loopback client http://localhost?redirect_uri=…&scope=…"
                )
            }
            return try HostedClientMetadata.registration(clientID: clientID, document: document)
        }
        guard scheme == "http", components.percentEncodedHost == "localhost" else {
            throw Refusal(reason: "client_id must be http://localhost (the loopback development client)")
        }
        guard components.port == nil else { throw Refusal(reason: "a loopback client_id must not have a port") }
        guard components.percentEncodedPath.isEmpty || components.percentEncodedPath == "/" else {
            throw Refusal(reason: "a loopback client_id must not have a path")
        }
        guard components.fragment == nil, components.user == nil, components.password == nil else {
            throw Refusal(reason: "a loopback client_id must not have a fragment or user info")
        }
        let pairs: [(String, String)]
        do {
            pairs = try FormEncoding.parsePairs(components.percentEncodedQuery ?? "")
        } catch {
            throw Refusal(reason: "the client_id query is malformed: \(error.reason)")
        }
        var redirectURIs: [String] = []
        var scope: String?
        for (name, value) in pairs {
            switch name {
            case "redirect_uri":
                try checkLoopbackRedirectURI(value)
                redirectURIs.append(value)
            case "scope":
                guard scope == nil else { throw Refusal(reason: "the client_id gives scope twice") }
                scope = value
            default:
                throw Refusal(reason: "a loopback client_id may only carry redirect_uri and scope, not \(name)")
            }
        }
        let scopes = try OAuthScope.registered(scope ?? "atproto")
        return ClientRegistration(
            clientID: clientID,
            kind: .loopback,
            redirectURIs: redirectURIs.isEmpty ? defaultLoopbackRedirectURIs : redirectURIs,
            scopes: scopes
        )
    }

    /// Checks a requested redirect URI against the client's.
    ///
    /// Loopback client: scheme, host, path and query must match, and the port too unless the registered URI has
    /// none (atproto OAuth). Hosted client: the exact string, except that a native client's loopback URIs match on
    /// any port (RFC 8252 §7.3).
    static func checkRedirectURI(_ redirectURI: String, for client: ClientRegistration) throws(Refusal) {
        if client.kind == .loopback || isLoopbackIP(redirectURI) {
            try checkLoopbackRedirectURI(redirectURI)
        }
        guard let requested = URLComponents(string: redirectURI) else { throw Refusal(reason: "not a URL") }
        let matches = client.redirectURIs.contains { registeredText in
            if registeredText == redirectURI { return true }
            guard client.kind != .web, isLoopbackIP(registeredText),
                let registered = URLComponents(string: registeredText)
            else { return false }
            return registered.scheme == requested.scheme
                && normalizedHost(registered) == normalizedHost(requested)
                && normalizedPath(registered) == normalizedPath(requested)
                && registered.percentEncodedQuery == requested.percentEncodedQuery
                && (client.kind == .native || registered.port == nil || registered.port == requested.port)
        }
        guard matches else {
            throw Refusal(
                reason: "redirect_uri \(redirectURI) is not registered for the client; registered: "
                    + client.redirectURIs.joined(separator: ", ")
            )
        }
    }

    /// Whether a URI is `http` to 127.0.0.1 or [::1].
    static func isLoopbackIP(_ value: String) -> Bool {
        guard let components = URLComponents(string: value), components.scheme == "http" else { return false }
        let host = normalizedHost(components)
        return host == "127.0.0.1" || host == "[::1]"
    }

    /// A loopback redirect URI must be `http` to 127.0.0.1 or [::1] (never `localhost`), without a fragment.
    static func checkLoopbackRedirectURI(_ value: String) throws(Refusal) {
        guard let components = URLComponents(string: value), components.scheme == "http" else {
            throw Refusal(reason: "redirect_uri \(value) must be an http URL to 127.0.0.1 or [::1]")
        }
        let host = normalizedHost(components)
        if host == "localhost" {
            throw Refusal(reason: "redirect_uri \(value) must use 127.0.0.1 or [::1], not localhost")
        }
        guard host == "127.0.0.1" || host == "[::1]" else {
            throw Refusal(reason: "redirect_uri \(value) must point to 127.0.0.1 or [::1]")
        }
        guard components.fragment == nil, components.user == nil, components.password == nil else {
            throw Refusal(reason: "redirect_uri \(value) must not have a fragment or user info")
        }
    }

    private static func normalizedHost(_ components: URLComponents) -> String {
        let host = (components.percentEncodedHost ?? "").lowercased()
        return host == "::1" ? "[::1]" : host
    }

    private static func normalizedPath(_ components: URLComponents) -> String {
        components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
    }
}
