public import DPoPRequestExecutor
public import Foundation
public import OAuthSessionManager

/// Calls XRPC methods on the account's PDS with DPoP-bound tokens.
///
/// Every call goes to the session's PDS through the ``DPoPRequestExecutor`` (which answers nonce challenges);
/// on `invalid_token` the session is refreshed once and the call retried once. Non-2xx answers become
/// ``XRPCError``.
public struct ATClient: Sendable {
    /// Where the session and key come from.
    public let sessions: any XRPCSessionSource
    /// The transport.
    public let transport: any HTTPTransport
    /// DPoP nonces per origin.
    public let nonceCache: DPoPNonceCache
    /// The `atproto-proxy` value for NSIDs the PDS forwards, such as `app.bsky.*` to the Bluesky AppView.
    public var proxies: [String: String]
    private let now: @Sendable () -> Date

    /// The default proxy for `app.bsky.*` and `chat.bsky.*`.
    public static let defaultProxies = [
        "app.bsky.": "did:web:api.bsky.app#bsky_appview", "chat.bsky.": "did:web:api.bsky.chat#bsky_chat",
    ]

    /// Creates a client.
    public init(
        sessions: any XRPCSessionSource,
        transport: any HTTPTransport,
        nonceCache: DPoPNonceCache = DPoPNonceCache(),
        proxies: [String: String] = ATClient.defaultProxies,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.sessions = sessions
        self.transport = transport
        self.nonceCache = nonceCache
        self.proxies = proxies
        self.now = now
    }

    /// Calls a query (HTTP GET) with query parameters.
    public func query(
        _ nsid: NSID,
        parameters: [(String, String)] = [],
        proxy: String? = nil
    ) async throws
        -> XRPCResponse
    {
        try await call(nsid, method: .get, parameters: parameters, body: nil, contentType: nil, proxy: proxy)
    }

    /// Calls a procedure (HTTP POST) with a body, JSON unless `contentType` says otherwise.
    public func procedure(
        _ nsid: NSID,
        input: Data?,
        contentType: String = "application/json",
        parameters: [(String, String)] = [],
        proxy: String? = nil
    ) async throws -> XRPCResponse {
        try await call(nsid, method: .post, parameters: parameters, body: input, contentType: contentType, proxy: proxy)
    }

    /// Calls a procedure with an `Encodable` JSON body.
    public func procedure(_ nsid: NSID, json: some Encodable, proxy: String? = nil) async throws -> XRPCResponse {
        try await procedure(nsid, input: try JSONEncoder().encode(json), proxy: proxy)
    }

    private func call(
        _ nsid: NSID,
        method: HTTPMethod,
        parameters: [(String, String)],
        body: Data?,
        contentType: String?,
        proxy: String?
    ) async throws -> XRPCResponse {
        var (session, key) = try await sessions.currentSession()
        var response = try await send(nsid, method, parameters, body, contentType, proxy, session, key)
        if XRPCError.isInvalidToken(response) {
            (session, key) = try await sessions.refreshedSession(replacing: session.accessToken)
            response = try await send(nsid, method, parameters, body, contentType, proxy, session, key)
        }
        guard response.isSuccess else {
            if XRPCError.isInvalidToken(response) {
                throw OAuthError.signInNeeded("the PDS refused the refreshed access token of \(session.did)")
            }
            throw XRPCError(method: nsid.rawValue, response: response)
        }
        return XRPCResponse(http: response)
    }

    // swift-format-ignore: ValidateDocumentationComments
    private func send(
        _ nsid: NSID,
        _ method: HTTPMethod,
        _ parameters: [(String, String)],
        _ body: Data?,
        _ contentType: String?,
        _ proxy: String?,
        _ session: OAuthSession,
        _ key: DPoPKey
    ) async throws -> HTTPResponse {
        var components = URLComponents(url: session.pds, resolvingAgainstBaseURL: false)
        components?.path = "/xrpc/\(nsid.rawValue)"
        if !parameters.isEmpty {
            components?.percentEncodedQuery = parameters.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }
                .joined(separator: "&")
        }
        guard let url = components?.url else { throw OAuthError.invalidInput("cannot build a URL for \(nsid)") }
        var headers: HTTPHeaders = ["Accept": "application/json"]
        if let contentType, body != nil { headers.add(name: "Content-Type", value: contentType) }
        if let proxy = proxy ?? proxies.first(where: { nsid.rawValue.hasPrefix($0.key) })?.value {
            headers.add(name: "atproto-proxy", value: proxy)
        }
        let executor = DPoPRequestExecutor(transport: transport, key: key, nonceCache: nonceCache, now: now)
        return try await executor.send(
            HTTPRequest(method: method, url: url, headers: headers, body: body),
            accessToken: session.accessToken
        )
    }

    private static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )
}
