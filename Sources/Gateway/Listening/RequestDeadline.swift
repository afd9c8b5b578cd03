import NIOCore
import NIOHTTP1

/// A total deadline for each request's head, and for a body the gateway receives whole before forwarding it, so
/// that a client trickling a byte at a time cannot hold a connection for longer than that (slowloris); the idle
/// timeout alone would let it, a byte a little more often than the timeout.
///
/// A head's deadline runs from its first byte (``HeadStart``, before the HTTP decoder) to its end
/// (``PartsWatch``, after it), so a connection kept alive between requests waits only on the idle timeout. When it
/// runs out, the connection is closed: nothing of the request has been answered. A body's deadline runs from the end
/// of the head (or from its first byte, when the client waited for `100 Continue`) to its end; when it runs out, the
/// request's body ends in ``Exceeded``, which the gateway answers with 408 and `Connection: close`. A large body of
/// known length, sent on to the PDS as it arrives, has none: the idle timeout bounds it.
///
/// Both handlers of a connection share one deadline and run on its event loop.
final class RequestDeadline {
    /// The error a body that ran out of time ends in.
    struct Exceeded: Error {}

    private enum Phase {
        /// Waiting for the first byte of the next request.
        case betweenRequests
        /// Reading a head, or a body received whole.
        case timed
        /// Waiting for the first byte of a body whose client waits for `100 Continue`.
        case awaitingBody
        /// Reading a body that is sent on as it arrives, which has no deadline.
        case untimed
    }

    private let limit: TimeAmount
    /// Bodies of a known length above this are sent on as they arrive (``GatewayConfiguration/memoryBodyLimit``).
    private let streamedAbove: Int
    private var phase = Phase.betweenRequests
    private var timer: Scheduled<Void>?

    init(limit: TimeAmount, streamedAbove: Int = GatewayConfiguration.memoryBodyLimit) {
        self.limit = limit
        self.streamedAbove = streamedAbove
    }

    /// The two handlers: one to put before the HTTP decoder, one after it.
    func handlers() -> (headStart: HeadStart, partsWatch: PartsWatch) {
        (HeadStart(deadline: self), PartsWatch(deadline: self))
    }

    private func start(_ context: ChannelHandlerContext, _ expire: @escaping (ChannelHandlerContext) -> Void) {
        timer?.cancel()
        phase = .timed
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { expire(context) }
    }

    private func stop(_ next: Phase) {
        timer?.cancel()
        timer = nil
        phase = next
    }

    /// Whether a request with this head has a body the gateway receives whole: chunked, or of a length up to
    /// ``streamedAbove``.
    private func bodyIsReceivedWhole(_ head: HTTPRequestHead) -> Bool {
        if head.headers.contains(name: "Transfer-Encoding") { return true }
        guard let length = head.headers["Content-Length"].first.flatMap({ Int($0) }) else { return false }
        return length > 0 && length <= streamedAbove
    }

    /// Starts a head's deadline at its first byte.
    final class HeadStart: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private let deadline: RequestDeadline

        init(deadline: RequestDeadline) {
            self.deadline = deadline
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            deadline.stop(.untimed)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .betweenRequests = deadline.phase, unwrapInboundIn(data).readableBytes > 0 {
                deadline.start(context) { $0.close(promise: nil) }
            }
            context.fireChannelRead(data)
        }
    }

    /// Ends a head's deadline at its end, and times a body received whole.
    final class PartsWatch: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        private let deadline: RequestDeadline

        init(deadline: RequestDeadline) {
            self.deadline = deadline
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                if !deadline.bodyIsReceivedWhole(head) {
                    deadline.stop(.untimed)
                } else if head.headers["Expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                    deadline.stop(.awaitingBody)
                } else {
                    startBody(context)
                }
            case .body:
                if case .awaitingBody = deadline.phase { startBody(context) }
            case .end:
                deadline.stop(.betweenRequests)
            }
            context.fireChannelRead(data)
        }

        private func startBody(_ context: ChannelHandlerContext) {
            deadline.start(context) { $0.fireErrorCaught(Exceeded()) }
        }
    }
}
