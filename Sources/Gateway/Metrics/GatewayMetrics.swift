import AccountManager
import Prometheus
import Synchronization

/// The gateway's Prometheus metrics, made in the server's own registry (never the process-wide `MetricsSystem`,
/// so that several gateways in one process keep their counts apart): requests by method and status (and account,
/// when asked), refusals by reason, the requests in flight, and a latency histogram.
struct GatewayMetrics: Sendable {
    /// Where the metrics are kept and exported from.
    let registry: PrometheusCollectorRegistry
    /// Whether requests are also counted by account DID.
    let perAccount: Bool
    /// Whether requests are also counted by token name.
    let perToken: Bool
    /// `atoauth_gateway_in_flight`.
    let inFlight: Gauge
    /// `atoauth_gateway_request_duration_seconds`.
    private let duration: DurationHistogram
    /// `atoauth_gateway_refreshes_total`: sessions this gateway refreshed.
    private let refreshes: Counter
    /// `atoauth_gateway_sessions_ended_total`: sessions that ended while the gateway used them.
    private let sessionsEnded: Counter
    /// `atoauth_gateway_nonce_retries_total`, and the count it was last brought up to.
    private let nonceRetries: Counter
    private let nonceRetriesCounted = Counted()

    /// Latency buckets from 0.1 ms (the gateway's own cost on loopback) to 30 s (a large upload).
    static let buckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2500),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        .seconds(30),
    ]

    init(registry: PrometheusCollectorRegistry, perAccount: Bool, perToken: Bool = false) {
        self.registry = registry
        self.perAccount = perAccount
        self.perToken = perToken
        inFlight = registry.makeGauge(
            descriptor: Self.name("in_flight", unit: "", help: "XRPC requests the gateway is forwarding now.")
        )
        duration = registry.makeDurationHistogram(
            descriptor: Self.name(
                "request_duration",
                unit: "seconds",
                help: "Time from a request's head to the last byte of its answer."
            ),
            buckets: Self.buckets
        )
        refreshes = registry.makeCounter(
            descriptor: Self.name(
                "refreshes",
                help: "Sessions refreshed by this gateway (another process's refresh of a shared store is not counted)."
            )
        )
        sessionsEnded = registry.makeCounter(
            descriptor: Self.name(
                "sessions_ended",
                help: "Sessions that ended while the gateway used them: refused on refresh, or signed out."
            )
        )
        nonceRetries = registry.makeCounter(
            descriptor: Self.name(
                "nonce_retries",
                help: "Requests sent again after a use_dpop_nonce challenge (RFC 9449 §8), each a round trip."
            )
        )
    }

    /// The descriptor of the metric `atoauth_gateway_<name>_<unit>` (`_total` for a counter; no suffix when `unit`
    /// is empty).
    private static func name(_ name: String, unit: String = "total", help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "atoauth",
            subsystem: "gateway",
            metricName: name,
            unitName: unit,
            helpText: help
        )
    }

    /// Counts a session refreshed here.
    func refreshed() { refreshes.increment() }

    /// Counts a session that ended.
    func sessionEnded() { sessionsEnded.increment() }

    /// Brings the nonce-retry counter up to `total`, the count the account manager's nonce cache keeps.
    func nonceRetries(total: Int) {
        let added = nonceRetriesCounted.value.withLock { counted -> Int in
            defer { counted = max(counted, total) }
            return max(0, total - counted)
        }
        if added > 0 { nonceRetries.increment(by: Int64(added)) }
    }

    /// Counts a finished request: its method (GET, POST, or `other`), its status, and, with ``perAccount``, the DID
    /// it went out as (`none` for a request answered before an account was chosen), and with ``perToken`` the name
    /// of its token (`startup`, or `none` without a valid one).
    func finished(method: String, status: Int, account: String?, token: String? = nil, after elapsed: Duration) {
        var labels = [("method", ["GET", "POST"].contains(method) ? method : "other"), ("status", String(status))]
        if perAccount { labels.append(("account", account ?? "none")) }
        if perToken { labels.append(("token", token ?? GatewayTokenRecord.noTokenName)) }
        registry.makeCounter(
            descriptor: Self.name(
                "requests",
                help: "Requests answered, by method and status (and account DID, when enabled)."
            ),
            labels: labels
        ).increment()
        duration.record(elapsed)
    }

    /// Counts a request the gateway refused itself, by the error name it answered with.
    func refused(_ reason: String) {
        registry.makeCounter(
            descriptor: Self.name(
                "refusals",
                help: "Requests the gateway answered with an error of its own, by error name."
            ),
            labels: [("reason", reason)]
        ).increment()
    }

    /// The metrics in the Prometheus text exposition format.
    var exposition: [UInt8] { registry.emitToBuffer() }
}

/// A count shared by the copies of ``GatewayMetrics``.
private final class Counted: Sendable {
    let value = Mutex(0)
}
