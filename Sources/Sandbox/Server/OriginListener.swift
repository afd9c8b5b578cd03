import Foundation
import Hummingbird
import Logging
import NIOCore
import Synchronization

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
        let signal = StartSignal()
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
            onServerRunning: { channel in signal.finish(.success(channel.localAddress?.port ?? port)) },
            logger: applicationLogger
        )
        let task = Task {
            do {
                try await application.run()
                signal.finish(.failure(ListenerStopped()))
            } catch {
                signal.finish(.failure(error))
                throw error
            }
        }
        do {
            let boundPort = try await signal.wait()
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

/// A one-shot result shared by the server's start callback and the waiting caller; the first result wins.
private final class StartSignal: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Int, any Error>?)
        case finished(Result<Int, any Error>)
    }

    private let state = Mutex<State>(.waiting(nil))

    func finish(_ result: Result<Int, any Error>) {
        let continuation: CheckedContinuation<Int, any Error>? = state.withLock { state in
            guard case .waiting(let continuation) = state else { return nil }
            state = .finished(result)
            return continuation
        }
        continuation?.resume(with: result)
    }

    func wait() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let finished: Result<Int, any Error>? = state.withLock { state in
                switch state {
                case .finished(let result):
                    return result
                case .waiting:
                    state = .waiting(continuation)
                    return nil
                }
            }
            if let finished { continuation.resume(with: finished) }
        }
    }
}
