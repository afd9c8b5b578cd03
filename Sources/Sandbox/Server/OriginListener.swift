import Foundation
import Hummingbird
import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One running Hummingbird server on 127.0.0.1: started by ``start(handler:port:origin:now:logger:)``, ended by
/// ``stop()``.
struct OriginListener: Sendable {
    /// The port the server is bound to.
    let port: Int
    private let task: Task<Void, any Error>

    /// Starts a server and returns once it listens, or throws when it cannot bind.
    ///
    /// - Parameters:
    ///   - handler: adds the routes that answer; its role gives the largest body read (``OriginRole/maximumBodySize``).
    ///   - port: the port, or `0` for one the system chooses.
    ///   - origin: gives the origin string, once all three origins are known.
    ///   - now: the sandbox's current time, for the `Date` header of every answer.
    ///   - logger: Hummingbird's own logger.
    /// - Returns: the running listener.
    /// - Throws: the server's error when it cannot bind.
    static func start(
        handler: any OriginHandler,
        port: Int,
        origin: @escaping @Sendable () -> String,
        now: @escaping @Sendable () -> Date,
        logger: Logger
    ) async throws -> OriginListener {
        // The bound port, or why the server could not start: whichever comes first.
        let (started, signal) = AsyncThrowingStream<Int, any Error>.makeStream()
        let router = Router(context: SandboxContext.self)
        router.add(middleware: BrowserAccessMiddleware())
        handler.addRoutes(to: router)
        let responder = OriginResponder(
            router: router.buildResponder(),
            headArrived: { handler.headArrived(path: $0) },
            origin: origin,
            now: now,
            maximumBodySize: handler.role.maximumBodySize,
            logger: logger
        )
        // Hummingbird logs every connection a stop cancels as an error ("Waiting on child channel"), which is how the
        // sandbox stops: its own log says what it does, and a port it cannot bind is thrown.
        var applicationLogger = logger
        applicationLogger.logLevel = .critical
        let application = Application(
            responder: responder,
            server: responder.server,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in signal.yield(channel.localAddress?.port ?? port) },
            logger: applicationLogger
        )
        let task = Task {
            do {
                try await application.run()
                signal.finish(throwing: ListenerStopped())
            } catch {
                signal.finish(throwing: error)
                throw error
            }
        }
        do {
            var ports = started.makeAsyncIterator()
            guard let boundPort = try await ports.next() else {
                // The stream ends without a port only when the wait is cancelled: say so, as a cancellation.
                try Task.checkCancellation()
                throw ListenerStopped()
            }
            return OriginListener(port: boundPort, task: task)
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            task.cancel()
            throw SandboxError.portInUse(port)
        } catch {
            task.cancel()
            throw error
        }
    }

    /// Stops the server and waits until it has closed.
    func stop() async {
        task.cancel()
        _ = try? await task.value
    }

    private init(port: Int, task: Task<Void, any Error>) {
        self.port = port
        self.task = task
    }
}

/// The server ended before it said it was running.
private struct ListenerStopped: Error {}
