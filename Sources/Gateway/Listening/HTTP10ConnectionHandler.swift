import NIOCore
import NIOHTTP1

/// Ends an HTTP/1.0 connection after its answer unless the client asked to keep it (`Connection: keep-alive`), as
/// RFC 9112 §9.3 has it for HTTP/1.0 (RFC 1945 knows no persistent connections).
///
/// It sits between the HTTP/1 decoder and the conversion to version-less HTTP types, the last place the request's
/// version is known. Such a request gets `Connection: close`, which Hummingbird reads to close the connection after
/// the answer, and so does the answer; an HTTP/1.0 request that asked for keep-alive gets `Connection: keep-alive`
/// back, as an HTTP/1.0 client expects.
final class HTTP10ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// What the answer to the request being read says of the connection; `nil` for HTTP/1.1, which needs nothing.
    private var answerConnection: String?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.version == .http1_0 {
            if head.isKeepAlive {
                answerConnection = "keep-alive"
            } else {
                answerConnection = "close"
                head.headers.replaceOrAdd(name: "Connection", value: "close")
            }
        } else {
            answerConnection = nil
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), let answerConnection else {
            context.write(data, promise: promise)
            return
        }
        if head.headers["Connection"].allSatisfy({ $0.lowercased() != "close" }) {
            head.headers.replaceOrAdd(name: "Connection", value: answerConnection)
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
