public import ATProtoSyntax
public import Foundation
public import HTTPTransport

/// An XRPC call as a value, for ``ATClient/execute(_:timeout:logger:)``: the method, its parameters and body, and the
/// account it goes out as (atproto.com/specs/xrpc).
///
/// ```swift
/// var request = XRPCRequest(nsid: try NSID(validating: "app.bsky.feed.getTimeline"), parameters: [("limit", "30")])
/// request.headers = ["atproto-accept-labelers": "did:plc:ar7c4by46qjdydhdevvrndac"]
/// let timeline = try await client.execute(request, timeout: .seconds(10))
/// ```
public struct XRPCRequest: Sendable {
    /// The method.
    public var nsid: NSID
    /// `GET` for a query, `POST` for a procedure.
    public var method: HTTPMethod
    /// The query parameters, in order, form-encoded when sent.
    public var parameters: [(String, String)]
    /// The body, or `nil` for none.
    public var body: Data?
    /// The body's media type; sent only with a body.
    public var contentType: String? = nil
    /// The `atproto-proxy` value, when not the client's default for the NSID (``ATClient/proxies``).
    public var proxy: String? = nil
    /// More header fields, such as `atproto-accept-labelers`, but none of ``ATClient/reservedHeaders``.
    ///
    /// An `Accept` field replaces the default `application/json`.
    public var headers: HTTPHeaders = [:]
    /// For a routed client, the handle or DID to act as; `nil` routes by the call's `repo`, else to the active account.
    ///
    /// A bound client accepts only its own.
    public var account: ATIdentifier? = nil

    /// Creates a call, a query unless `method` says otherwise; set the other properties as AsyncHTTPClient's requests
    /// are set.
    public init(nsid: NSID, method: HTTPMethod = .get, parameters: [(String, String)] = [], body: Data? = nil) {
        self.nsid = nsid
        self.method = method
        self.parameters = parameters
        self.body = body
    }
}

/// What routing, the header fields and the permission check read from a call, whether its body is whole
/// (``XRPCRequest``) or streamed (``XRPCForwardedRequest``).
protocol XRPCCall: Sendable {
    var nsid: NSID { get }
    var parameters: [(String, String)] { get }
    var headers: HTTPHeaders { get }
    var proxy: String? { get }
    var contentType: String? { get }
    /// The body when it can be looked into, for its `repo` and the permissions it needs.
    var inspectableBody: Data? { get }
    /// Whether the call has a body, looked into or not.
    var hasBody: Bool { get }
}

extension XRPCRequest: XRPCCall {
    var inspectableBody: Data? { body }
    var hasBody: Bool { body != nil }
}

extension XRPCForwardedRequest: XRPCCall {
    var hasBody: Bool { body != nil }
}
