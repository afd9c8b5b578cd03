public import Logging
import ServiceLifecycle
import UnixSignals

extension GatewayServer {
    /// Runs the gateway until SIGTERM or until the calling task is cancelled, each a graceful stop (the requests in
    /// flight finish for up to ``GatewayConfiguration/shutdownGrace``); once it listens, publishes `token` in `file`
    /// and calls `listening` with the address it is bound to.
    ///
    /// - Throws: ``GatewayError`` when it cannot listen; what `file` or `listening` throws.
    public func runUntilStopped(
        publishing token: String,
        in file: GatewayTokenFile,
        logger: Logger,
        listening: (GatewayConfiguration.Listen) throws -> Void
    ) async throws {
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [self],
                gracefulShutdownSignals: [.sigterm],
                cancellationSignals: [],
                logger: logger
            )
        )
        // Not a child task: cancelling the caller (Ctrl-C) becomes the same graceful stop as SIGTERM instead of
        // cutting the requests in flight off.
        let running = Task { try await group.run() }
        try await withTaskCancellationHandler {
            let address: GatewayConfiguration.Listen
            do {
                address = try await boundAddress()
            } catch {
                try await running.value  // the server's own error, when it ended with one
                throw error
            }
            do {
                try file.publish(token, address: address)
            } catch {
                await group.triggerGracefulShutdown()
                _ = try? await running.value
                throw error
            }
            try listening(address)
            try await running.value
        } onCancel: {
            Task { await group.triggerGracefulShutdown() }
        }
    }
}
