import NIOCore
import NIOHTTP1

/// Answers every HTTP request with the same small `getSession`-like JSON, verifying nothing, so a client's cost
/// is all that changes between runs.
///
/// Every answer carries a fixed `DPoP-Nonce`, so the DPoP client takes its nonce bookkeeping path while the
/// plain client receives the same bytes and ignores them.
final class PlainResponder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The nonce every answer carries: 16 random-looking bytes in base64url, as real servers send.
    static let nonce = "q2Hv8WLx0pLZb3cE1sT9Ng"

    /// The body every answer carries.
    static let body = #"{"handle":"alice.test","did":"did:plc:ewvi7nxzyoun6zhxrhs64oiz","active":true}"#

    private var keepAlive = true

    /// Reads a request; answers at its end.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            keepAlive = head.isKeepAlive
        case .body:
            break
        case .end:
            respond(context)
        }
    }

    private func respond(_ context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: Self.body.utf8.count)
        buffer.writeString(Self.body)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: String(buffer.readableBytes))
        headers.add(name: "DPoP-Nonce", value: Self.nonce)
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))),
            promise: nil
        )
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { [channel = context.channel] _ in
                channel.close(promise: nil)
            }
        }
    }
}
