import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One descriptor kept open in reserve, so that a gateway out of file descriptors sheds the connections waiting to
/// be accepted instead of spinning on `EMFILE`.
///
/// When `accept` fails for want of a descriptor, SwiftNIO's server channel stays interested in the listening socket,
/// which stays readable, and tries again at once: a loop that would use a whole core for as long as the descriptors
/// are taken. ``Guard`` catches that failure, frees the reserve, and lets the accept be tried again: it succeeds, and
/// ``GatewayHTTP1Channel`` closes that connection at once (``shedsNext()``), which frees the descriptor for the
/// reserve to be taken again (``restore()``). Each connection waiting costs one accept and one close; with none left,
/// the listening socket is quiet.
final class DescriptorReserve: Sendable {
    private struct State {
        var spare: Int32?
        var shedding = 0
    }

    private let state: Mutex<State>

    init() {
        state = Mutex(State(spare: Self.openSpare()))
    }

    deinit {
        state.withLock { state in
            if let spare = state.spare { close(spare) }
        }
    }

    private static func openSpare() -> Int32? {
        let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        return descriptor >= 0 ? descriptor : nil
    }

    /// Frees the reserve for the next accept, whose connection is then shed: `false` when it is already free.
    func release() -> Bool {
        state.withLock { state in
            guard let spare = state.spare else { return false }
            close(spare)
            state.spare = nil
            state.shedding += 1
            return true
        }
    }

    /// Whether the connection just accepted took the reserve's descriptor and is to be closed at once.
    func shedsNext() -> Bool {
        state.withLock { state in
            guard state.shedding > 0 else { return false }
            state.shedding -= 1
            return true
        }
    }

    /// Takes the reserve again, when it is free and a descriptor is.
    func restore() {
        state.withLock { state in
            if state.spare == nil { state.spare = Self.openSpare() }
        }
    }

    /// The first handler of the server channel: on `EMFILE` or `ENFILE` from `accept`, frees the reserve and keeps
    /// the error from the handlers after it (SwiftNIO's accept backoff would leave the channel spinning).
    ///
    /// When the reserve is already free (another descriptor took its place before the shed connection closed), it stops
    /// accepting for ``pause``, takes the reserve again, and accepts again: out of descriptors, the gateway waits
    /// rather than spins.
    final class Guard: ChannelInboundHandler, Sendable {
        typealias InboundIn = NIOAny
        typealias InboundOut = NIOAny
        /// How long accepting stops when no descriptor can be freed.
        static let pause = TimeAmount.milliseconds(100)
        private let reserve: DescriptorReserve
        private let paused = Mutex(false)

        init(reserve: DescriptorReserve) {
            self.reserve = reserve
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            guard let error = error as? IOError, error.errnoCode == EMFILE || error.errnoCode == ENFILE else {
                context.fireErrorCaught(error)
                return
            }
            if reserve.release() { return }
            pauseAccepting(channel: context.channel)
        }

        private func pauseAccepting(channel: any Channel) {
            let alreadyPaused = paused.withLock { paused in
                defer { paused = true }
                return paused
            }
            guard !alreadyPaused else { return }
            channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            channel.eventLoop.scheduleTask(in: Self.pause) { self.resumeAccepting(channel: channel) }
        }

        private func resumeAccepting(channel: any Channel) {
            reserve.restore()
            paused.withLock { $0 = false }
            channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        }
    }
}
