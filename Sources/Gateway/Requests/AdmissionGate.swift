import Prometheus
import Synchronization

/// Bounds the `/xrpc/` requests in flight: one past the limit is refused at once rather than queued, so a flood
/// from a runaway script costs memory and PDS connections for the limit's worth of requests only.
final class AdmissionGate: Sendable {
    /// The most requests in flight.
    let limit: Int
    /// The gauge that shows the count, `atoauth_gateway_in_flight`.
    private let gauge: Gauge
    private let count = Mutex(0)

    init(limit: Int, gauge: Gauge) {
        self.limit = limit
        self.gauge = gauge
    }

    /// Admits one request, or says no when `limit` are in flight; each admission is ended by one ``leave()``.
    func enter() -> Bool {
        let admitted = count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        if admitted { gauge.increment() }
        return admitted
    }

    /// Ends one admission.
    func leave() {
        count.withLock { $0 -= 1 }
        gauge.decrement()
    }
}
