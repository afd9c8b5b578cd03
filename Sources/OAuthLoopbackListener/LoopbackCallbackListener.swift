public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for the authorization server's redirect on `http://127.0.0.1:<port>/<path>` (RFC 8252 §7.3).
///
/// It listens on 127.0.0.1 only, only while a sign-in is under way: ``waitForCallback(timeout:expectedState:)``
/// returns the callback URL, the caller completes the sign-in, and ``finish(with:)`` answers the browser with a
/// small page and closes the listener. Other local processes can reach the port too (RFC 8252 §8.3), so a request
/// whose `Host` is not this listener, or a callback whose `state` is not the expected one, is answered with an
/// error page and the listener keeps waiting; requests to other paths get 404; after the sign-in finished, every
/// request gets a page that names no account. Nor can they hold the listener: a connection is closed when it falls
/// silent, or when its request head is not complete within ``Limits/requestHeadTimeout`` however it trickles in, and
/// of the ``Limits/maximumConnections`` served at once, the oldest one still sending its head gives its slot to a
/// newcomer, so connections held open cannot keep the browser's redirect out.
///
/// When the browser runs on another machine, its redirect cannot reach this listener; the user can paste the address
/// of the page it ends on instead, and ``submit(pasted:)`` puts it through the same checks and hands it to the same
/// wait, so whichever arrives first completes the sign-in.
public final class LoopbackCallbackListener: Sendable {
    /// The redirect URI to register in the sign-in: `http://127.0.0.1:<port><path>`.
    public let redirectURI: URL
    private let serverChannel: any Channel
    private let callbacks: AsyncStream<URL>
    /// Feeds ``callbacks``: the connections' callbacks and pasted ones.
    let delivery: AsyncStream<URL>.Continuation
    private let page: PageSlot
    let gate: CallbackGate
    /// The connections' slots; tests await their occupancy.
    let slots: ConnectionSlots

    /// Binds the listener; `port` 0 picks a free port.
    public static func start(
        port: Int = 0,
        path: String = "/callback",
        limits: Limits = Limits()
    ) async throws -> LoopbackCallbackListener {
        // The newest callbacks are kept: a flood of forged ones before the expected `state` is known cannot push out
        // the browser's, which comes after them.
        let (callbacks, continuation) = AsyncStream.makeStream(of: URL.self, bufferingPolicy: .bufferingNewest(64))
        let page = PageSlot()
        let gateSlot = Mutex<CallbackGate?>(nil)
        let slots = ConnectionSlots(limit: limits.maximumConnections)
        let idle = limits.idleTimeAmount
        let headTimeout = limits.requestHeadTimeAmount
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                guard let gate = gateSlot.withLock({ $0 }), let ticket = slots.admit(channel) else {
                    return channel.close()
                }
                channel.closeFuture.whenComplete { _ in slots.release(ticket) }
                // The initializer runs on the child channel's event loop, where the synchronous pipeline is usable.
                do {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(IdleStateHandler(readTimeout: idle))
                    try pipeline.configureHTTPServerPipeline()
                    try pipeline.addHandler(RequestHeadGuard(slots: slots, ticket: ticket, timeout: headTimeout))
                    try pipeline.addHandler(CallbackHandler(gate: gate, callbacks: continuation, page: page))
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: "127.0.0.1", port: port).get()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw LoopbackListenerError.portInUse(port)
        }
        guard let boundPort = channel.localAddress?.port,
            let redirectURI = URL(string: "http://127.0.0.1:\(boundPort)\(path)")
        else {
            try? await channel.close()
            throw LoopbackListenerError.notBound
        }
        let gate = CallbackGate(path: path, port: boundPort)
        gateSlot.withLock { $0 = gate }
        return LoopbackCallbackListener(
            redirectURI: redirectURI,
            channel: channel,
            callbacks: callbacks,
            delivery: continuation,
            page: page,
            gate: gate,
            slots: slots
        )
    }

    private init(
        redirectURI: URL,
        channel: any Channel,
        callbacks: AsyncStream<URL>,
        delivery: AsyncStream<URL>.Continuation,
        page: PageSlot,
        gate: CallbackGate,
        slots: ConnectionSlots
    ) {
        self.redirectURI = redirectURI
        self.serverChannel = channel
        self.callbacks = callbacks
        self.delivery = delivery
        self.page = page
        self.gate = gate
        self.slots = slots
    }

    /// The longest wait: a timeout beyond it is shortened, because the clock traps on a deadline it cannot represent.
    public static let maximumTimeout = Duration.seconds(365 * 86_400)

    /// Returns the first callback URL whose `state` is `expectedState`, or throws when `timeout` passes or the task
    /// is cancelled.
    ///
    /// With an `expectedState` (RFC 6749 §10.12), a callback carrying another `state` is answered with an error page
    /// and the wait goes on; without one, the first callback wins. When the wait ends with no callback for this
    /// sign-in after one with another `state` was refused, the error says so (a failed security check), not that
    /// none arrived. A negative timeout waits for nothing; one longer
    /// than ``maximumTimeout`` waits that long.
    public func waitForCallback(timeout: Duration, expectedState: String? = nil) async throws -> URL {
        if let expectedState { expect(state: expectedState) }
        let timeout = min(max(timeout, .zero), Self.maximumTimeout)
        return try await withThrowingTaskGroup(of: URL?.self) { group in
            group.addTask { [callbacks, gate] in
                for await url in callbacks {
                    if expectedState == nil || CallbackGate.state(in: url) == expectedState { return url }
                    // Delivered before the expected state was known, and refused now.
                    gate.noteRefusedState()
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let url = first else {
                try Task.checkCancellation()
                let seconds = Int(timeout.components.seconds)
                let refused = gate.refusedStates
                // A redirect came and was refused: that is what the user needs to hear, not that none arrived.
                guard refused == 0 else { throw LoopbackListenerError.refusedRedirects(refused, seconds: seconds) }
                throw LoopbackListenerError.timedOut(seconds)
            }
            return url
        }
    }

    /// Says which `state` the sign-in under way expects, so a callback with any other is refused from now on.
    ///
    /// Call it as soon as the state is known, before the browser opens; ``waitForCallback(timeout:expectedState:)``
    /// calls it too.
    public func expect(state: String) {
        gate.expect(state: state)
    }

    /// Answers the waiting browser with `page`, then stops listening.
    public func finish(with page: CallbackPage) async {
        gate.finish()
        self.page.fill(page)
        // Each connection that sent a whole request is answered now (the page, or a refusal) and closes once the
        // answer is written; wait for that before the listener closes. An answer is a few kilobytes, which the kernel
        // takes whether or not the browser reads, so the ten seconds only bound a machine too loaded to write it
        // (two were not enough: a loaded test run saw a page cut off).
        let deadline = ContinuousClock.now + .seconds(10)
        while slots.occupancy.complete > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        await close()
    }

    /// Stops listening; safe to call more than once.
    public func close() async {
        gate.finish()
        page.fill(.failed("The sign-in was cancelled."))
        try? await serverChannel.close()
    }
}
