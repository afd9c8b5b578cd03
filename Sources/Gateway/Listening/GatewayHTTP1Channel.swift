import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 child channel with ``HTTP10ConnectionHandler`` right after the request decoder, so that an
/// HTTP/1.0 connection is not kept open unless it asked to be.
struct GatewayHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    let inner: HTTP1Channel

    var responder: HTTPChannelHandler.Responder { inner.responder }

    init(responder: @escaping HTTPChannelHandler.Responder, configuration: HTTP1Channel.Configuration) {
        inner = HTTP1Channel(responder: responder, configuration: configuration)
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(HTTP10ConnectionHandler(), position: .after(decoder))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
