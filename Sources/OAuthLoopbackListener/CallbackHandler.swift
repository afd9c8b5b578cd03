import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// Holds the page to answer the callback with, once the sign-in has finished.
final class PageSlot: Sendable {
    private let state = Mutex<(page: CallbackPage?, waiters: [@Sendable (CallbackPage) -> Void])>((nil, []))

    /// Sets the page (the first one wins) and runs the waiters.
    func fill(_ page: CallbackPage) {
        let waiters = state.withLock { state -> [@Sendable (CallbackPage) -> Void] in
            guard state.page == nil else { return [] }
            state.page = page
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter(page) }
    }

    /// Runs `body` with the page as soon as there is one.
    func whenFilled(_ body: @escaping @Sendable (CallbackPage) -> Void) {
        let ready = state.withLock { state -> CallbackPage? in
            if let page = state.page { return page }
            state.waiters.append(body)
            return nil
        }
        if let ready { body(ready) }
    }
}

/// Serves one connection of the loopback listener: what ``CallbackGate`` decides, one request per connection.
final class CallbackHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let gate: CallbackGate
    private let callbacks: AsyncStream<URL>.Continuation
    private let page: PageSlot
    /// Whether this connection's request was read, whether it is a delivered callback waiting for its page, and
    /// whether that page was written.
    private let progress = Mutex<(answered: Bool, awaitingPage: Bool, pageWritten: Bool)>((false, false, false))

    init(gate: CallbackGate, callbacks: AsyncStream<URL>.Continuation, page: PageSlot) {
        self.gate = gate
        self.callbacks = callbacks
        self.page = page
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        let first = progress.withLock { progress in
            defer { progress.answered = true }
            return !progress.answered
        }
        guard first else { return }
        let decision = gate.decide(
            method: head.method.rawValue,
            target: head.uri,
            host: head.headers.first(name: "Host")
        )
        switch decision {
        case .refuse(let refusal):
            write(status: HTTPResponseStatus(statusCode: refusal.status), html: refusal.page.html, context: context)
        case .deliver(let url, let state):
            progress.withLock { $0.awaitingPage = true }
            callbacks.yield(url)
            let eventLoop = context.eventLoop
            let loopBound = NIOLoopBound(context, eventLoop: eventLoop)
            // The pages arrive on whatever thread finished the sign-in or named its state; the context is only
            // touched on its loop, and one page is written.
            let answer: @Sendable (HTTPResponseStatus, CallbackPage) -> Void = { [self] status, shown in
                eventLoop.execute {
                    guard self.takePageTurn() else { return }
                    self.write(status: status, html: shown.html, context: loopBound.value)
                }
            }
            // A callback of another state than the sign-in's is answered as soon as that state is known, so that
            // callbacks delivered before it cannot hold every slot while the browser's redirect comes.
            gate.whenStateExpected { expected in
                if state != expected { answer(.badRequest, CallbackGate.foreignPage) }
            }
            page.whenFilled { [gate] page in answer(.ok, gate.page(page, forState: state)) }
        }
    }

    /// Whether the page is still to be written; true once.
    private func takePageTurn() -> Bool {
        progress.withLock { progress in
            defer { progress.pageWritten = true }
            return !progress.pageWritten
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent, !progress.withLock({ $0.awaitingPage }) {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func write(status: HTTPResponseStatus, html: String, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        headers.add(name: "Content-Length", value: String(html.utf8.count))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Connection", value: "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
            promise: nil
        )
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: html)))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
