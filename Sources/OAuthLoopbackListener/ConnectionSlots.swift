import NIOCore
import Synchronization

/// The listener's connection slots, shared by every event loop.
///
/// A connection past the limit takes the slot of the oldest connection still sending its request head, which is
/// closed: other local processes (RFC 8252 §8.3) that open connections and trickle their heads cannot keep the
/// browser's redirect out. A connection that sent its whole head is being answered and keeps its slot, so a newcomer
/// is refused only when every slot holds one.
final class ConnectionSlots: Sendable {
    /// One connection's hold on a slot.
    struct Ticket: Hashable, Sendable {
        fileprivate let number: UInt64
    }

    /// How many connections hold a slot, how many of them sent their whole request head, and how many were admitted.
    struct Occupancy: Hashable, Sendable {
        /// Connections holding a slot.
        var open: Int
        /// Those of them that sent their whole request head.
        var complete: Int
        /// Connections given a slot since the listener started, including those closed since.
        var admitted: Int
    }

    private struct Holder {
        let ticket: Ticket
        let channel: any Channel
        var headComplete = false
    }

    private struct Waiter {
        let condition: @Sendable (Occupancy) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var nextTicket: UInt64 = 0
        /// Oldest first.
        var holders: [Holder] = []
        var waiters: [Waiter] = []

        var occupancy: Occupancy {
            Occupancy(
                open: holders.count,
                complete: holders.count(where: { $0.headComplete }),
                admitted: Int(clamping: nextTicket)
            )
        }

        /// Takes out the waiters whose condition now holds.
        mutating func satisfiedWaiters() -> [Waiter] {
            let now = occupancy
            var satisfied: [Waiter] = []
            waiters.removeAll { waiter in
                guard waiter.condition(now) else { return false }
                satisfied.append(waiter)
                return true
            }
            return satisfied
        }
    }

    private let state = Mutex(State())
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a slot for `channel`, or `nil` when every slot holds a connection that sent its whole request head.
    ///
    /// When all slots are taken, the oldest connection still sending its head is closed and its slot taken.
    func admit(_ channel: any Channel) -> Ticket? {
        let (ticket, evicted, satisfied) = state.withLock { state -> (Ticket?, (any Channel)?, [Waiter]) in
            var evicted: (any Channel)?
            if state.holders.count >= limit {
                guard let oldest = state.holders.firstIndex(where: { !$0.headComplete }) else { return (nil, nil, []) }
                evicted = state.holders.remove(at: oldest).channel
            }
            let ticket = Ticket(number: state.nextTicket)
            state.nextTicket += 1
            state.holders.append(Holder(ticket: ticket, channel: channel))
            return (ticket, evicted, state.satisfiedWaiters())
        }
        // Closing hops to the evicted channel's event loop; its slot is already this connection's.
        evicted?.close(promise: nil)
        for waiter in satisfied { waiter.continuation.resume() }
        return ticket
    }

    /// Records that the connection holding `ticket` sent its whole request head, so it keeps its slot; `false` when
    /// it no longer holds one (it was evicted and is being closed).
    func completeHead(_ ticket: Ticket) -> Bool {
        let (held, satisfied) = state.withLock { state -> (Bool, [Waiter]) in
            guard let index = state.holders.firstIndex(where: { $0.ticket == ticket }) else { return (false, []) }
            state.holders[index].headComplete = true
            return (true, state.satisfiedWaiters())
        }
        for waiter in satisfied { waiter.continuation.resume() }
        return held
    }

    /// Gives the slot of `ticket` back, when it still holds one.
    func release(_ ticket: Ticket) {
        let satisfied = state.withLock { state -> [Waiter] in
            state.holders.removeAll { $0.ticket == ticket }
            return state.satisfiedWaiters()
        }
        for waiter in satisfied { waiter.continuation.resume() }
    }

    /// The connections now: open, and of those, the ones that sent their whole request.
    var occupancy: Occupancy { state.withLock { $0.occupancy } }

    /// Returns as soon as the occupancy meets `condition`, so that tests await the listener instead of sleeping.
    func wait(until condition: @escaping @Sendable (Occupancy) -> Bool) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if condition(state.occupancy) { return true }
                state.waiters.append(Waiter(condition: condition, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
