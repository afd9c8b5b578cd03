import NIOCore
import NIOHTTP1

/// Tells the gateway of a request the HTTP/1 decoder could not read (a head over the limits, `Content-Length` beside
/// `Transfer-Encoding`, a control byte in the request line), which the server answers `400` and closes, so that it is
/// counted, logged and audited as every other answer is.
///
/// It sits right after the decoder and passes the error on unchanged.
final class UnreadableRequestWitness: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart

    private let witness: @Sendable (HTTPParserError) -> Void

    init(_ witness: @escaping @Sendable (HTTPParserError) -> Void) {
        self.witness = witness
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError { witness(error) }
        context.fireErrorCaught(error)
    }
}
