public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import OAuthSessionManager
import Synchronization

/// Waits for the authorization server's redirect on `http://127.0.0.1:<port>/<path>` (RFC 8252 §7.3).
///
/// It listens on 127.0.0.1 only, only while a sign-in is under way: ``waitForCallback(timeout:)`` returns the
/// callback URL, the caller completes the sign-in, and ``finish(with:)`` answers the browser with a small page and
/// closes the listener. Requests to other paths get 404; the first callback wins.
public final class LoopbackCallbackListener: Sendable {
    /// The redirect URI to register in the sign-in: `http://127.0.0.1:<port><path>`.
    public let redirectURI: URL
    private let serverChannel: any Channel
    private let callbacks: AsyncStream<URL>
    private let page: PageSlot

    /// Binds the listener; `port` 0 picks a free port.
    public static func start(port: Int = 0, path: String = "/callback") async throws -> LoopbackCallbackListener {
        let (callbacks, continuation) = AsyncStream.makeStream(of: URL.self, bufferingPolicy: .bufferingOldest(1))
        let page = PageSlot()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(CallbackHandler(path: path, callbacks: continuation, page: page))
                }
            }
            .bind(host: "127.0.0.1", port: port)
            .get()
        guard let boundPort = channel.localAddress?.port,
            let redirectURI = URL(string: "http://127.0.0.1:\(boundPort)\(path)")
        else {
            try? await channel.close()
            throw OAuthError.invalidCallback("the loopback listener could not bind")
        }
        return LoopbackCallbackListener(redirectURI: redirectURI, channel: channel, callbacks: callbacks, page: page)
    }

    private init(redirectURI: URL, channel: any Channel, callbacks: AsyncStream<URL>, page: PageSlot) {
        self.redirectURI = redirectURI
        self.serverChannel = channel
        self.callbacks = callbacks
        self.page = page
    }

    /// The longest wait: a timeout beyond it is shortened, because the clock traps on a deadline it cannot represent.
    public static let maximumTimeout = Duration.seconds(365 * 86_400)

    /// Returns the first callback URL, or throws when `timeout` passes or the task is cancelled.
    ///
    /// A negative timeout waits for nothing; one longer than ``maximumTimeout`` waits that long.
    public func waitForCallback(timeout: Duration) async throws -> URL {
        let timeout = min(max(timeout, .zero), Self.maximumTimeout)
        return try await withThrowingTaskGroup(of: URL?.self) { group in
            group.addTask { [callbacks] in
                for await url in callbacks { return url }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let url = first else {
                try Task.checkCancellation()
                throw OAuthError.callbackTimedOut(Int(timeout.components.seconds))
            }
            return url
        }
    }

    /// Answers the waiting browser with `page`, then stops listening.
    public func finish(with page: CallbackPage) async {
        self.page.fill(page)
        try? await Task.sleep(for: .milliseconds(200))  // Let the page be written before the listener closes.
        await close()
    }

    /// Stops listening; safe to call more than once.
    public func close() async {
        page.fill(.failed("The sign-in was cancelled."))
        try? await serverChannel.close()
    }
}
