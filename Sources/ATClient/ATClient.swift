import ATProtoPermissions
public import ATProtoSyntax
public import AccountManager
public import Foundation
public import HTTPTransport
import OAuthSessionManager
import WireFormat

/// Calls XRPC methods on an account's PDS with DPoP-bound tokens (atproto.com/specs/xrpc).
///
/// A client is either bound to one account (``AccountManager/client(for:)``) or routed
/// (``AccountManager/client()``): a routed client picks the account per request, as ``AccountRoute`` describes —
/// an explicit account, else the account the request's `repo` names when it is signed in here, else the active
/// account. Either way the request goes through that account's long-lived ``AccountConnection``, which adds the
/// DPoP proof and token, refreshes ahead of expiry, and retries once after `invalid_token`. Non-2xx answers
/// become ``XRPCError``.
public struct ATClient: Sendable {
    enum Binding: Sendable {
        case account(AccountConnection)
        case routed(AccountManager)
    }

    let binding: Binding
    /// The `atproto-proxy` value for NSIDs the PDS forwards, such as `app.bsky.*` to the Bluesky AppView.
    public var proxies: [String: String]

    /// The default proxy for `app.bsky.*` and `chat.bsky.*`.
    public static let defaultProxies = [
        "app.bsky.": "did:web:api.bsky.app#bsky_appview", "chat.bsky.": "did:web:api.bsky.chat#bsky_chat",
    ]

    init(_ binding: Binding, proxies: [String: String] = ATClient.defaultProxies) {
        self.binding = binding
        self.proxies = proxies
    }

    /// Calls a query (HTTP GET) with query parameters.
    ///
    /// - Parameters:
    ///   - nsid: the method.
    ///   - parameters: the query parameters, in order.
    ///   - proxy: the `atproto-proxy` value, when not the default for the NSID.
    ///   - headers: more header fields, such as `atproto-accept-labelers`; an `Accept` field replaces the default
    ///     `application/json`. The fields the client sets itself (``reservedHeaders``) are refused.
    ///   - account: for a routed client, the handle or DID to act as; a bound client accepts only its own.
    /// - Returns: the successful answer.
    /// - Throws: ``XRPCError`` for a non-2xx answer; ``MissingPermissionError`` when the session lacks a permission
    ///   the call needs; ``XRPCRequestError`` when a header is reserved; `AccountError` when no account fits.
    public func query(
        _ nsid: NSID,
        parameters: [(String, String)] = [],
        proxy: String? = nil,
        headers: HTTPHeaders = [:],
        as account: ATIdentifier? = nil
    ) async throws -> XRPCResponse {
        try await call(nsid, .get, parameters, nil, nil, proxy, headers, account)
    }

    /// Calls a procedure (HTTP POST) with a body, JSON unless `contentType` says otherwise; `headers` as for
    /// ``query(_:parameters:proxy:headers:as:)``.
    public func procedure(
        _ nsid: NSID,
        input: Data?,
        contentType: String = "application/json",
        parameters: [(String, String)] = [],
        proxy: String? = nil,
        headers: HTTPHeaders = [:],
        as account: ATIdentifier? = nil
    ) async throws -> XRPCResponse {
        try await call(nsid, .post, parameters, input, contentType, proxy, headers, account)
    }

    /// The header fields the client sets itself, which `headers` may not hold: the DPoP proof and token
    /// (RFC 9449 §7.1), the body's framing and type, the origin, and `atproto-proxy`, which goes in `proxy` so the
    /// permission check sees it.
    public static let reservedHeaders: Set<String> = [
        "authorization", "dpop", "host", "content-length", "content-type", "transfer-encoding", "connection",
        "keep-alive", "te", "upgrade", "atproto-proxy",
    ]

    /// Calls a procedure with an `Encodable` JSON body.
    public func procedure(
        _ nsid: NSID,
        json: some Encodable,
        proxy: String? = nil,
        as account: ATIdentifier? = nil
    ) async throws -> XRPCResponse {
        try await procedure(nsid, input: try JSONEncoder().encode(json), proxy: proxy, as: account)
    }

    /// The account a request goes out as.
    func connection(
        explicit: ATIdentifier?,
        fallback: ATIdentifier? = nil,
        parameters: [(String, String)],
        body: Data?,
        contentType: String?
    ) async throws -> AccountConnection {
        switch binding {
        case .account(let connection):
            if let explicit, !explicit.names(did: connection.did, handle: connection.session.handle) {
                throw AccountError.accountMismatch(
                    "this client acts as \(connection.displayName), not \(explicit)"
                )
            }
            return connection
        case .routed(let manager):
            let route = AccountRoute(
                explicit: explicit,
                repo: RepoParameter.find(parameters, body, contentType),
                fallback: fallback
            )
            return try await manager.connection(for: route)
        }
    }

    // swift-format-ignore: ValidateDocumentationComments
    private func call(
        _ nsid: NSID,
        _ method: HTTPMethod,
        _ parameters: [(String, String)],
        _ body: Data?,
        _ contentType: String?,
        _ proxy: String?,
        _ extraHeaders: HTTPHeaders,
        _ account: ATIdentifier?
    ) async throws -> XRPCResponse {
        let prepared = try await prepare(
            nsid,
            parameters: parameters,
            inspectableBody: body,
            contentType: contentType,
            hasBody: body != nil,
            proxy: proxy,
            headers: extraHeaders,
            account: account
        )
        let connection = prepared.connection
        let needed = prepared.needed
        let response = try await connection.send(
            method,
            path: "/xrpc/\(nsid.rawValue)",
            percentEncodedQuery: parameters.isEmpty ? nil : FormEncoding.encode(parameters),
            headers: prepared.headers,
            body: body,
            authorize: { try Self.checkLocally(needed, nsid, $0, connection.displayName) }
        )
        guard response.isSuccess else {
            if let missing = ScopeMissingAnswer.missing(in: response) {
                throw MissingPermissionError(
                    method: nsid.rawValue,
                    permission: missing,
                    account: connection.displayName,
                    grantedScope: connection.session.scope,
                    refusedLocally: false
                )
            }
            throw XRPCError(method: nsid.rawValue, response: response)
        }
        return XRPCResponse(http: response)
    }

    /// The account a call goes out as, its header fields, and the permissions it needs.
    func prepare(
        _ nsid: NSID,
        parameters: [(String, String)],
        inspectableBody body: Data?,
        contentType: String?,
        hasBody: Bool,
        proxy: String?,
        headers extraHeaders: HTTPHeaders,
        account: ATIdentifier?,
        fallback: ATIdentifier? = nil
    ) async throws -> (connection: AccountConnection, headers: HTTPHeaders, needed: [Permission]) {
        if let reserved = extraHeaders.first(where: { Self.reservedHeaders.contains($0.name.lowercased()) }) {
            throw XRPCRequestError.reservedHeader(reserved.name)
        }
        let connection = try await connection(
            explicit: account,
            fallback: fallback,
            parameters: parameters,
            body: body,
            contentType: contentType
        )
        var headers: HTTPHeaders = ["Accept": "application/json"]
        if extraHeaders["Accept"] != nil { headers.remove(name: "Accept") }
        for field in extraHeaders { headers.add(name: field.name, value: field.value) }
        if let contentType, hasBody { headers.add(name: "Content-Type", value: contentType) }
        let proxy = proxy ?? proxies.first(where: { nsid.rawValue.hasPrefix($0.key) })?.value
        if let proxy { headers.add(name: "atproto-proxy", value: proxy) }
        let needed = RequiredPermissions.of(nsid, proxy: proxy, body: body, contentType: contentType)
        return (connection, headers, needed)
    }

    /// Refuses a call whose permission the current session's grant clearly lacks; when the grant holds anything not
    /// understood here (an unknown token, an `include:` set), the call is sent and the PDS decides.
    static func checkLocally(
        _ needed: [Permission],
        _ nsid: NSID,
        _ session: Session,
        _ account: String
    ) throws {
        guard !needed.isEmpty else { return }
        let granted = session.permissions
        guard granted.isFullyUnderstood, let lacking = needed.first(where: { !granted.covers($0) }) else { return }
        throw MissingPermissionError(
            method: nsid.rawValue,
            permission: lacking,
            account: account,
            grantedScope: session.scope,
            refusedLocally: true
        )
    }
}

extension AccountManager {
    /// A client bound to one signed-in account (a handle or DID).
    ///
    /// - Throws: ``AccountError`` when no signed-in account matches.
    public func client(for account: ATIdentifier) async throws -> ATClient {
        ATClient(.account(try await restore(account)))
    }

    /// A client that picks the account per request: explicit, else the request's `repo`, else the active one.
    public nonisolated func client() -> ATClient {
        ATClient(.routed(self))
    }
}
