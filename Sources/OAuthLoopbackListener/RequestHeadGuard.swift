import NIOCore
import NIOHTTP1

/// Closes a connection whose request head is not complete by its deadline, and tells the slots when it is.
///
/// The deadline runs from the accept to the end of the head and nothing that arrives puts it off, so a local process
/// that trickles a header line now and then (RFC 8252 §8.3) loses its connection as one that sends nothing does.
/// A connection whose head completes keeps its slot while it is answered; one that lost its slot to a newer
/// connection before its head completed is closed without an answer. It sits behind the HTTP decoder, which passes
/// on a request's head once the whole head has arrived, and runs on the connection's event loop only.
final class RequestHeadGuard: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let slots: ConnectionSlots
    private let ticket: ConnectionSlots.Ticket
    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Whether the head is still awaited, arrived with the slot kept, or arrived after the slot was lost.
    private var head = Head.awaited

    private enum Head {
        case awaited
        case arrived
        case evicted
    }

    init(slots: ConnectionSlots, ticket: ConnectionSlots.Ticket, timeout: TimeAmount) {
        self.slots = slots
        self.ticket = ticket
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch head {
        case .arrived:
            context.fireChannelRead(data)
        case .evicted:
            return
        case .awaited:
            // The decoder's first part of a request is its head; anything else is passed on untouched.
            guard case .head = unwrapInboundIn(data) else {
                context.fireChannelRead(data)
                return
            }
            deadline?.cancel()
            deadline = nil
            guard slots.completeHead(ticket) else {
                head = .evicted
                context.close(promise: nil)
                return
            }
            head = .arrived
            context.fireChannelRead(data)
        }
    }
}
