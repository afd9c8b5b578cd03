import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 child channel with the gateway's own handlers around the request decoder:
/// ``HTTP10ConnectionHandler``, so that an HTTP/1.0 connection is not kept open unless it asked to be,
/// ``AbsoluteTargetHost``, so that the host of an absolute-form target is the one checked,
/// ``UnreadableRequestWitness``, so that a request the decoder refuses is audited, and the two of
/// ``RequestDeadline``; and a connection over ``ConnectionCount/limit``, or accepted on the descriptor of
/// ``DescriptorReserve``, closed as soon as it is accepted.
struct GatewayHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    let inner: HTTP1Channel
    /// The connections open, against their limit.
    let connections: ConnectionCount
    /// The deadline of a request's head, and of a body received whole.
    let deadline: TimeAmount
    /// The descriptor kept for shedding connections while the process has no other.
    let reserve: DescriptorReserve
    /// Told of each request the HTTP/1 decoder could not read.
    let unreadable: @Sendable (HTTPParserError) -> Void

    var responder: HTTPChannelHandler.Responder { inner.responder }

    init(
        responder: @escaping HTTPChannelHandler.Responder,
        configuration: HTTP1Channel.Configuration,
        connections: ConnectionCount,
        deadline: TimeAmount,
        reserve: DescriptorReserve,
        unreadable: @escaping @Sendable (HTTPParserError) -> Void
    ) {
        inner = HTTP1Channel(responder: responder, configuration: configuration)
        self.connections = connections
        self.deadline = deadline
        self.reserve = reserve
        self.unreadable = unreadable
    }

    // Nothing here may fail: a child channel whose setup fails ends the server's accept loop (Hummingbird reads the
    // accepted connections from one stream, which the failure finishes). A connection over the limit is set up, then
    // closed at once; the server then reads no byte of it.
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        let shed = reserve.shedsNext()
        let admitted = connections.opened() && !shed
        channel.closeFuture.whenComplete { [connections, reserve] _ in
            connections.closed()
            reserve.restore()
        }
        return inner.setup(channel: channel, logger: logger).map { [deadline, unreadable] value in
            guard admitted else {
                channel.close(promise: nil)
                return value
            }
            let operations = channel.pipeline.syncOperations
            guard let decoder = try? operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) else {
                channel.close(promise: nil)
                return value
            }
            let timing = RequestDeadline(limit: deadline).handlers()
            do {
                try operations.addHandler(timing.headStart, position: .before(decoder))
                try operations.addHandler(timing.partsWatch, position: .after(decoder))
                try operations.addHandler(HTTP10ConnectionHandler(), position: .after(decoder))
                try operations.addHandler(AbsoluteTargetHost(), position: .after(decoder))
                try operations.addHandler(UnreadableRequestWitness(unreadable), position: .after(decoder))
            } catch {
                channel.close(promise: nil)
            }
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
