import Synchronization

/// Where the gateway listens, once it does: set once when the socket is bound (or the server fails first), read by
/// every request (for its `Host` check) and awaited by ``GatewayServer/boundAddress()``.
final class ListeningSignal: Sendable {
    private enum State {
        case waiting([CheckedContinuation<GatewayConfiguration.Listen, any Error>])
        case listening(GatewayConfiguration.Listen, HostCheck)
        case ended(any Error)
    }

    private let state = Mutex(State.waiting([]))

    /// Records the bound address and wakes every waiter; later calls change nothing.
    func listening(at address: GatewayConfiguration.Listen) {
        let waiters: [CheckedContinuation<GatewayConfiguration.Listen, any Error>] = state.withLock { state in
            guard case .waiting(let waiters) = state else { return [] }
            state = .listening(address, HostCheck(address))
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: address) }
    }

    /// Records that the server ended (or never started) with `error`, waking every waiter with it; an address
    /// already given stays.
    func ended(_ error: any Error) {
        let waiters: [CheckedContinuation<GatewayConfiguration.Listen, any Error>] = state.withLock { state in
            guard case .waiting(let waiters) = state else { return [] }
            state = .ended(error)
            return waiters
        }
        for waiter in waiters { waiter.resume(throwing: error) }
    }

    /// The `Host` check for the bound address; `nil` before the gateway listens.
    var hostCheck: HostCheck? {
        state.withLock { state in
            guard case .listening(_, let check) = state else { return nil }
            return check
        }
    }

    /// The bound address, once there is one.
    ///
    /// - Throws: the error the server ended with before it listened.
    func address() async throws -> GatewayConfiguration.Listen {
        try await withCheckedThrowingContinuation { continuation in
            let result: Result<GatewayConfiguration.Listen, any Error>? = state.withLock { state in
                switch state {
                case .waiting(var waiters):
                    waiters.append(continuation)
                    state = .waiting(waiters)
                    return nil
                case .listening(let address, _):
                    return .success(address)
                case .ended(let error):
                    return .failure(error)
                }
            }
            if let result { continuation.resume(with: result) }
        }
    }
}
