/// What the log line and the metrics say about one request, gathered while it is answered: never its body, its
/// query, or any header's value.
struct RequestRecord: Sendable {
    /// The method, such as `GET`.
    var method: String
    /// The path, made safe for a log; `/xrpc/<nsid>` requests are named by ``nsid`` instead.
    var path: String
    /// The XRPC method, once read.
    var nsid: String?
    /// The DID the request went out as.
    var account: String?
    /// The refusal the gateway answered with, if it did.
    var refusal: GatewayRefusal?
    /// Whether the request is a health check, logged only at debug level (probes come often).
    var isHealthCheck = false
    /// The name of the token it carried (`startup` for the start-up token); `nil` without a valid one.
    var token: String?
    /// The bytes of the request's body read.
    var bytesIn = 0
    /// The bytes of the answer's body written, counted when the audit log is on.
    let bytesOut = ByteCount()
}
