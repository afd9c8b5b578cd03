import NIOCore
import NIOHTTP1

/// Gives a request whose target is in absolute-form (`GET http://host:port/path`) that target's host as its `Host`,
/// since a server must use it and ignore the `Host` field (RFC 9112 §3.2.2): the gateway's check of `Host` then
/// judges the host the request really names.
///
/// It sits after the HTTP/1 decoder, the last place the target is whole: the conversion to version-less HTTP types
/// keeps its path only.
final class AbsoluteTargetHost: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), let authority = Self.authority(ofTarget: head.uri) else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "Host", value: authority)
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// The authority of a target in absolute-form, such as `host:8080` for `http://host:8080/a?b`; `nil` for the
    /// origin-form (`/a?b`) a program sends to a server.
    static func authority(ofTarget target: String) -> String? {
        guard !target.hasPrefix("/"), let scheme = target.firstIndex(of: ":"),
            target[scheme...].hasPrefix("://")
        else { return nil }
        let rest = target[target.index(scheme, offsetBy: 3)...]
        return String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
    }
}
