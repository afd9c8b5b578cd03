import Synchronization

/// The connections a gateway has open, against its limit (``GatewayConfiguration/connectionLimit``): one over it is
/// closed as soon as it is accepted, before a byte of it is read.
final class ConnectionCount: Sendable {
    /// The most connections open at once.
    let limit: Int
    private let open = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a connection just accepted, and says whether it is within the limit.
    ///
    /// Every call is matched by ``closed()``, admitted or not.
    func opened() -> Bool {
        open.wrappingAdd(1, ordering: .relaxed).newValue <= limit
    }

    /// Counts a connection closed.
    func closed() {
        open.wrappingSubtract(1, ordering: .relaxed)
    }

    /// How many connections are open now.
    var current: Int { open.load(ordering: .relaxed) }
}
