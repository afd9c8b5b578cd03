import Foundation
import OAuthLoopbackListener
import Testing

/// Starts a loopback listener, runs `body` with it and its port, and closes it on every path.
func withListener(
    _ limits: LoopbackCallbackListener.Limits = .init(),
    _ body: (LoopbackCallbackListener, Int) async throws -> Void
) async throws {
    let listener = try await LoopbackCallbackListener.start(limits: limits)
    let port = try #require(listener.redirectURI.port)
    do {
        try await body(listener, port)
        await listener.close()
    } catch {
        await listener.close()
        throw error
    }
}
