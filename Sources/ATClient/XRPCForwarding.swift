import ATProtoPermissions
public import ATProtoSyntax
import AccountManager
public import Foundation
public import HTTPTransport
public import Logging
import WireFormat

/// An XRPC call to pass on as it came, for a proxy such as `atoauth gateway`: its body streamed, its answer
/// returned whatever its status.
public struct XRPCForwardedRequest: Sendable {
    /// The method.
    public var nsid: NSID
    /// `GET` for a query, `POST` for a procedure.
    public var method: HTTPMethod
    /// The query as received, already percent-encoded, sent unchanged.
    public var percentEncodedQuery: String? = nil
    /// The query's pairs, decoded: the `repo` the call names is read from them.
    public var parameters: [(String, String)] = []
    /// More header fields to send; none of ``ATClient/reservedHeaders``.
    public var headers: HTTPHeaders = [:]
    /// The body, sent in chunks.
    public var body: HTTPRequestBody?
    /// The body's media type.
    public var contentType: String?
    /// The whole body when it is small JSON, looked into for its `repo` and the permissions it needs (a record's
    /// collection); `nil` otherwise.
    public var inspectableBody: Data? = nil
    /// The `atproto-proxy` value, when the caller gave one; else the client's default for the NSID.
    public var proxy: String? = nil

    /// Creates a request without a query or more header fields; set those, as AsyncHTTPClient's requests are set.
    public init(nsid: NSID, method: HTTPMethod, body: HTTPRequestBody? = nil, contentType: String? = nil) {
        self.nsid = nsid
        self.method = method
        self.body = body
        self.contentType = contentType
    }
}

/// The PDS's answer to a forwarded call, and the account it went out as.
public struct XRPCForwardedResponse: Sendable {
    /// The answer, its body still to be read.
    public var response: HTTPStreamedResponse
    /// The account's DID.
    public var account: DID
}

extension ATClient {
    /// Sends `request` as the account it routes to, as ``query(_:parameters:proxy:headers:as:)`` and
    /// ``procedure(_:input:contentType:parameters:proxy:headers:as:)`` do, with the body streamed; a non-2xx answer
    /// is returned, not thrown.
    ///
    /// - Throws: ``MissingPermissionError`` when the session clearly lacks a permission the call needs (nothing is
    ///   sent); ``XRPCRequestError`` when a header is reserved; `AccountError` when no account fits or the session
    ///   ended; `CallTimeoutError` when `timeout` passes first; transport and DPoP errors.
    ///
    /// - Parameters:
    ///   - request: the call.
    ///   - account: the handle or DID to act as; a bound client accepts only its own.
    ///   - fallback: for a routed client, the account to act as when neither `account` nor the call's `repo`
    ///     chooses one, in place of the active account.
    ///   - timeout: how long the call may take up to the answer's head, as for ``execute(_:timeout:logger:)``;
    ///     reading the answer's body is the caller's.
    ///   - logger: gets the call's debug lines; the manager's configured logger when `nil`.
    /// - Returns: the PDS's answer, whatever its status, and the account the call went out as.
    public func forward(
        _ request: XRPCForwardedRequest,
        as account: ATIdentifier? = nil,
        otherwise fallback: ATIdentifier? = nil,
        timeout: Duration? = nil,
        logger: Logger? = nil
    ) async throws -> XRPCForwardedResponse {
        try await forward(request, as: account, otherwise: fallback, timeout: timeout, logger: logger, admit: nil)
    }

    /// ``forward(_:as:otherwise:timeout:logger:)``, with `admit` judging the account and permissions before anything
    /// is sent (a gateway token's limits).
    package func forward(
        _ request: XRPCForwardedRequest,
        as account: ATIdentifier?,
        otherwise fallback: ATIdentifier?,
        timeout: Duration? = nil,
        logger: Logger? = nil,
        admit: CallAdmission?
    ) async throws -> XRPCForwardedResponse {
        try await CallDeadline.run(within: CallDeadline(timeout), call: request.nsid.rawValue) {
            let prepared = try await self.prepare(request, as: account, otherwise: fallback, admit: admit)
            let response = try await prepared.connection.stream(
                prepared.request(request.method, query: request.percentEncodedQuery),
                body: request.body,
                deadline: nil,
                logger: logger,
                authorize: prepared.authorize
            )
            return XRPCForwardedResponse(response: response, account: prepared.connection.did)
        }
    }
}

extension ATClient {
    /// Refuses now what ``forward(_:as:otherwise:timeout:logger:)`` would refuse before sending; nothing is sent.
    ///
    /// That is: no account fits or none is signed in, a header is reserved, or the account's current session clearly
    /// lacks a permission the call needs.
    ///
    /// A proxy calls it before it reads a body it will not look into (`request.body` and `inspectableBody` are not
    /// read), so that a client sending a large upload bound to fail hears so before sending it (RFC 9110 §10.1.1).
    /// The forward itself routes and checks again: an account switched in between is followed.
    ///
    /// - Throws: what ``forward(_:as:otherwise:timeout:logger:)`` throws before sending.
    /// - Returns: the account the call would go out as now.
    @discardableResult
    public func preflight(
        _ request: XRPCForwardedRequest,
        as account: ATIdentifier? = nil,
        otherwise fallback: ATIdentifier? = nil
    ) async throws -> DID {
        try await preflight(request, as: account, otherwise: fallback, admit: nil)
    }

    /// ``preflight(_:as:otherwise:)``, with `admit` judging the account and permissions as the forward will.
    @discardableResult
    package func preflight(
        _ request: XRPCForwardedRequest,
        as account: ATIdentifier?,
        otherwise fallback: ATIdentifier?,
        admit: CallAdmission?
    ) async throws -> DID {
        let prepared = try await prepare(request, as: account, otherwise: fallback, admit: admit)
        let connection = prepared.connection
        // The current session, read again when another process changed it (a new sign-in may grant more), as the
        // forward's own check reads it.
        let session = try await connection.currentSession()
        try prepared.authorize(session)
        return connection.did
    }
}

/// A judge of a call before it is sent, given the account it goes out as and what it needs of a grant (as the
/// pre-flight check computes it); it throws to refuse the call, and nothing is sent.
package typealias CallAdmission = @Sendable (_ account: DID, _ needs: CallNeeds) throws -> Void
