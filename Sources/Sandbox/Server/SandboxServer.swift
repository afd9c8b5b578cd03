public import Foundation
public import Logging
public import WireFormat

/// A strict local AT Protocol authorization server, PDS and PLC directory, on three loopback origins.
///
/// ```swift
/// let server = SandboxServer(configuration: SandboxConfiguration(autoApprove: true))
/// let endpoints = try await server.start()
/// print(endpoints.shellExports)
/// // … sign in with atoauth against endpoints.pds …
/// await server.stop()
/// ```
///
/// The configuration can change while it runs (``updateConfiguration(_:)``), and ``counters`` tells what happened.
public actor SandboxServer {
    private let core: SandboxCore
    private var listeners: [OriginListener] = []
    private var runningEndpoints: SandboxEndpoints?
    private var starting: Task<SandboxEndpoints, any Error>?

    /// Creates a server; nothing listens until ``start()``.
    ///
    /// - Parameters:
    ///   - configuration: accounts, ports, lifetimes, consent mode and faults.
    ///   - logger: where rejections and events are logged; by default standard error at `info`.
    ///   - now: the clock for every expiry, proof check and `Date` header; tests move it forward to expire tokens.
    ///     The `clockSkew` fault moves the time the sandbox reads from it.
    ///   - random: the source of tokens, codes, nonces and CSRF tokens.
    public init(
        configuration: SandboxConfiguration = SandboxConfiguration(),
        logger: Logger = SandboxServer.standardErrorLogger(),
        now: @escaping @Sendable () -> Date = { Date() },
        random: any RandomSource = .system
    ) {
        self.core = SandboxCore(
            configuration: configuration,
            monitor: SandboxMonitor(logger: logger),
            now: now,
            random: random
        )
    }

    /// A logger that writes to standard error at `level`, without touching the global logging system.
    public static func standardErrorLogger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "atoauth.sandbox") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        return logger
    }

    /// Starts the three origins on 127.0.0.1 and returns their URLs; calling it again returns the same URLs.
    ///
    /// - Throws: when a port cannot be bound; nothing is left listening then.
    public func start() async throws -> SandboxEndpoints {
        if let runningEndpoints { return runningEndpoints }
        if let starting { return try await starting.value }
        let task = Task { try await bind() }
        starting = task
        defer { starting = nil }
        return try await task.value
    }

    private func bind() async throws -> SandboxEndpoints {
        let configuration = core.configuration
        var serverLogger = core.monitor.logger
        serverLogger.logLevel = max(serverLogger.logLevel, .warning)
        let handlers: [(any OriginHandler, Int)] = [
            (PLCDirectoryHandler(core: core), configuration.ports.plcDirectory),
            (PDSHandler(core: core, gate: makeGate()), configuration.ports.pds),
            (AuthorizationServerHandler(core: core, gate: makeGate()), configuration.ports.authorizationServer),
        ]
        var started: [OriginListener] = []
        do {
            for (handler, port) in handlers {
                let core = core
                let role = handler.role
                let listener = try await OriginListener.start(
                    handler: handler,
                    port: port,
                    origin: { core.origin(role) },
                    now: { core.now() },
                    logger: serverLogger
                )
                core.setOrigin("http://127.0.0.1:\(listener.port)", for: role)
                started.append(listener)
            }
        } catch {
            for listener in started { await listener.stop() }
            throw error
        }
        listeners = started
        let endpoints = try Self.endpoints(core)
        runningEndpoints = endpoints
        let message =
            "sandbox started: PLC directory \(endpoints.plcDirectory), PDS \(endpoints.pds), "
            + "authorization server \(endpoints.authorizationServer)"
        core.monitor.logger.info("\(message)")
        return endpoints
    }

    /// Stops every origin and waits until they closed; the in-memory state is kept.
    public func stop() async {
        if let starting { _ = try? await starting.value }
        let running = listeners
        listeners = []
        runningEndpoints = nil
        for listener in running { await listener.stop() }
    }

    /// Starts, hands the endpoints to `onStart`, then serves until the calling task is cancelled, and stops.
    public func run(onStart: @Sendable (SandboxEndpoints) async -> Void = { _ in }) async throws {
        let endpoints = try await start()
        await onStart(endpoints)
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3600))
        }
        await stop()
    }

    /// The URLs of the running server, or `nil` before ``start()``.
    public var endpoints: SandboxEndpoints? { runningEndpoints }

    /// The current configuration.
    public nonisolated var configuration: SandboxConfiguration { core.configuration }

    /// Changes the configuration of the running server; the next request sees the change (ports excepted).
    ///
    /// ```swift
    /// server.updateConfiguration { $0.faults.refreshServerError = .times(2) }
    /// ```
    public nonisolated func updateConfiguration(_ change: (inout SandboxConfiguration) -> Void) {
        core.updateConfiguration(change)
    }

    /// What the server has counted so far.
    public nonisolated var counters: SandboxCounters { core.monitor.snapshot }

    /// Sets every counter back to zero.
    public nonisolated func resetCounters() {
        core.monitor.reset()
    }

    /// Drops the client metadata documents and JWK Sets fetched from loopback addresses.
    ///
    /// They are kept ten minutes otherwise; the next request fetches them again. Configured documents are never
    /// cached.
    ///
    /// - Returns: how many were dropped.
    @discardableResult
    public nonisolated func resetClientCache() -> Int {
        core.clientDocuments.reset()
    }

    private func makeGate() -> DPoPGate {
        DPoPGate(nonces: DPoPNonceState(random: core.random, now: core.now()), replays: core.replays)
    }

    private static func endpoints(_ core: SandboxCore) throws -> SandboxEndpoints {
        guard let plc = URL(string: core.origin(.plcDirectory)), let pds = URL(string: core.origin(.pds)),
            let authorizationServer = URL(string: core.origin(.authorizationServer))
        else { throw SandboxError.notListening }
        return SandboxEndpoints(plcDirectory: plc, pds: pds, authorizationServer: authorizationServer)
    }
}
