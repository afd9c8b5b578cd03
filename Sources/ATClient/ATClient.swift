import ATProtoPermissions
public import ATProtoSyntax
public import AccountManager
public import Foundation
public import HTTPTransport
public import Logging
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
        var request = XRPCRequest(nsid: nsid, parameters: parameters)
        request.proxy = proxy
        request.headers = headers
        request.account = account
        return try await execute(request)
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
        var request = XRPCRequest(nsid: nsid, method: .post, parameters: parameters, body: input)
        request.contentType = contentType
        request.proxy = proxy
        request.headers = headers
        request.account = account
        return try await execute(request)
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

    /// Calls `request` as the account it routes to and returns the successful answer.
    ///
    /// ``query(_:parameters:proxy:headers:as:)`` and ``procedure(_:input:contentType:parameters:proxy:headers:as:)``
    /// are this with a request of their arguments.
    ///
    /// - Parameters:
    ///   - request: the call.
    ///   - timeout: how long the whole call may take: choosing the account, reading its session, a refresh and the
    ///     retry after `invalid_token` included; `nil` for no limit beyond the transport's own per exchange.
    ///   - logger: gets the call's debug lines (never a token); the manager's configured logger when `nil`.
    /// - Returns: the successful answer.
    /// - Throws: ``XRPCError`` for a non-2xx answer; ``MissingPermissionError`` when the session lacks a permission
    ///   the call needs; ``XRPCRequestError`` when a header is reserved; `AccountError` when no account fits;
    ///   `CallTimeoutError` when `timeout` passes first.
    public func execute(
        _ request: XRPCRequest,
        timeout: Duration? = nil,
        logger: Logger? = nil
    ) async throws -> XRPCResponse {
        try await CallDeadline.run(within: CallDeadline(timeout), call: request.nsid.rawValue) {
            try await self.send(request, logger: logger)
        }
    }

    /// Sends `request` with no deadline of its own (``execute(_:timeout:logger:)`` sets it).
    private func send(_ request: XRPCRequest, logger: Logger?) async throws -> XRPCResponse {
        let prepared = try await prepare(request, as: request.account)
        let query = request.parameters.isEmpty ? nil : FormEncoding.encode(request.parameters)
        let response = try await prepared.connection.send(
            prepared.request(request.method, query: query, body: request.body),
            deadline: nil,
            logger: logger,
            authorize: prepared.authorize
        )
        guard response.isSuccess else {
            let connection = prepared.connection
            if let missing = ScopeMissingAnswer.missing(in: response) {
                throw MissingPermissionError(
                    method: request.nsid.rawValue,
                    permission: missing,
                    account: connection.displayName,
                    grantedScope: connection.session.scope,
                    refusedLocally: false
                )
            }
            throw XRPCError(method: request.nsid.rawValue, response: response)
        }
        return XRPCResponse(http: response)
    }

    /// The account `call` goes out as (`account`, else for a routed client its `repo`, else `fallback`, else the
    /// active account), its header fields, and the permissions it needs.
    func prepare(
        _ call: some XRPCCall,
        as account: ATIdentifier?,
        otherwise fallback: ATIdentifier? = nil,
        admit: CallAdmission? = nil
    ) async throws -> PreparedCall {
        if let reserved = call.headers.first(where: { Self.reservedHeaders.contains($0.name.lowercased()) }) {
            throw XRPCRequestError.reservedHeader(reserved.name)
        }
        let connection = try await connection(
            explicit: account,
            fallback: fallback,
            parameters: call.parameters,
            body: call.inspectableBody,
            contentType: call.contentType
        )
        var headers: HTTPHeaders = ["Accept": "application/json"]
        if call.headers["Accept"] != nil { headers.remove(name: "Accept") }
        for field in call.headers { headers.add(name: field.name, value: field.value) }
        if let contentType = call.contentType, call.hasBody { headers.add(name: "Content-Type", value: contentType) }
        let proxy = call.proxy ?? proxies.first(where: { call.nsid.rawValue.hasPrefix($0.key) })?.value
        if let proxy { headers.add(name: "atproto-proxy", value: proxy) }
        let needs = RequiredPermissions.of(
            call.nsid,
            parameters: call.parameters,
            proxy: proxy,
            body: call.inspectableBody,
            contentType: call.contentType
        )
        try admit?(connection.did, needs)
        return PreparedCall(nsid: call.nsid, connection: connection, headers: headers, needed: needs.permissions)
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
