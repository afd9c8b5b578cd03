import ATClient
public import AccountManager
import DPoPRequestExecutor
import Foundation
import HummingbirdCore
public import Logging
public import Metrics
import NIOCore
import NIOPosix
import OAuthSessionManager
public import Prometheus
public import ServiceLifecycle
import WireFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A local HTTP gateway to the signed-in accounts: any program on this machine calls `/xrpc/<nsid>` with plain HTTP
/// and the gateway's token, and the gateway forwards the call as an account (DPoP proof, nonces, refresh and
/// permission checks included) and passes the PDS's answer back, both bodies streamed.
///
/// It is a ServiceLifecycle `Service`: it runs until its task is cancelled, or until a graceful shutdown, when it
/// stops accepting connections, finishes the requests in flight for up to
/// ``GatewayConfiguration/shutdownGrace``, then cancels those left.
///
/// ```swift
/// let gateway = try GatewayServer(configuration: configuration, accounts: accounts, logger: logger)
/// let group = ServiceGroup(services: [gateway], gracefulShutdownSignals: [.sigterm], logger: logger)
/// async let running: Void = group.run()
/// print("listening on \(try await gateway.boundAddress())")
/// try await running
/// ```
public final class GatewayServer: Service, CustomStringConvertible {
    /// The settings it was made with.
    public let configuration: GatewayConfiguration
    /// The registry its metrics live in, exported at `GET /_gateway/metrics`.
    public let registry: PrometheusCollectorRegistry
    private let accounts: AccountManager
    private let logger: Logger
    private let listening = ListeningSignal()

    /// Makes a gateway over `accounts`; it listens once ``run()`` is called.
    ///
    /// - Parameters:
    ///   - configuration: where it listens, its token and its limits.
    ///   - accounts: the signed-in accounts; each request picks one as ``GatewayConfiguration`` describes.
    ///   - registry: where its metrics are kept; its own by default, so that several gateways in one process never
    ///     mix their counts, and the process-wide `MetricsSystem` is left alone.
    ///   - logger: one line per request (method, XRPC method, status, duration; the account's DID at debug level),
    ///     and the gateway's start and stop; never a token, a body or an `Authorization` value.
    /// - Throws: ``GatewayError`` when a setting cannot be used.
    public init(
        configuration: GatewayConfiguration,
        accounts: AccountManager,
        registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        logger: Logger = Logger(label: "atoauth.gateway", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        try configuration.validate()
        self.configuration = configuration
        self.accounts = accounts
        self.registry = registry
        self.logger = logger
    }

    /// A swift-metrics factory over ``registry``: metrics made with it show at `GET /_gateway/metrics` too.
    public var metricsFactory: any MetricsFactory { PrometheusMetricsFactory(registry: registry) }

    /// Where the gateway listens, once it does: the port the system chose for port 0.
    ///
    /// - Throws: the error ``run()`` ended with before the gateway listened, such as ``GatewayError`` for an
    ///   address in use.
    public func boundAddress() async throws -> GatewayConfiguration.Listen {
        try await listening.address()
    }

    /// `GatewayServer(<address>)`.
    public var description: String { "GatewayServer(\(configuration.listen))" }

    /// Listens and answers requests until the task is cancelled or a graceful shutdown ends it.
    ///
    /// - Throws: ``GatewayError`` when the spool directory cannot be made or the address cannot be bound.
    public func run() async throws {
        do {
            try await serve()
            listening.ended(GatewayError.cannotListen("\(configuration.listen)", "the gateway stopped"))
        } catch {
            listening.ended(error)
            throw error
        }
    }

    private func serve() async throws {
        let spool = try SpoolDirectory(configuration.spoolDirectory)
        let upstream = UpstreamCalls()
        let metrics = GatewayMetrics(
            registry: registry,
            perAccount: configuration.metricsPerAccount,
            perToken: configuration.metricsPerToken
        )
        let handler = GatewayHandler(
            configuration: configuration,
            client: accounts.client(),
            metrics: metrics,
            gate: AdmissionGate(limit: configuration.maximumConcurrentRequests, gauge: metrics.inFlight),
            bodies: RequestBodyReader(
                limit: configuration.maximumBodyBytes,
                spool: spool,
                idleTimeout: configuration.idleTimeout,
                deadline: configuration.requestDeadline
            ),
            listening: listening,
            logger: logger,
            now: { Date() },
            nonceRetries: { [accounts] in accounts.nonceCache.challengesAnswered },
            authenticator: GatewayAuthenticator(configuration: configuration, accounts: accounts, logger: logger),
            audit: try configuration.auditLog.map(AuditLog.init),
            upstream: upstream
        )
        var serverLogger = logger
        serverLogger.logLevel = max(logger.logLevel, .warning)  // Hummingbird's own chatter stays out of the log.
        let (address, privatePath) = try bindAddress()
        defer { privatePath?.discard() }
        let listen = configuration.listen
        let grace = configuration.shutdownGrace
        let signal = listening
        let log = logger
        let channelConfiguration = HTTP1Channel.Configuration(idleTimeout: TimeAmount(configuration.idleTimeout))
        let connections = ConnectionCount(limit: configuration.connectionLimit)
        let deadline = TimeAmount(configuration.requestDeadline)
        let reserve = DescriptorReserve()
        let server = try HTTPServerBuilder { responder in
            GatewayHTTP1Channel(
                responder: responder,
                configuration: channelConfiguration,
                connections: connections,
                deadline: deadline,
                reserve: reserve,
                unreadable: { handler.recordUnreadable($0) }
            )
        }.buildServer(
            configuration: ServerConfiguration(address: address),
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: serverLogger,
            responder: { (request, writer: consuming ResponseWriter, _) in
                try await handler.serve(request, writer: writer)
            },
            onServerRunning: { channel in
                // First, so that no handler after it sees a failed accept for want of a descriptor.
                try? await channel.pipeline.addHandler(DescriptorReserve.Guard(reserve: reserve), position: .first)
                    .get()
                if let privatePath {
                    let code = privatePath.publish()
                    guard code == 0 else {
                        log.error(
                            "the socket could not be moved into place",
                            metadata: [
                                "path": .string(privatePath.path), "error": .string(String(cString: strerror(code))),
                            ]
                        )
                        channel.close(mode: .all, promise: nil)
                        return
                    }
                }
                let bound = GatewayServer.bound(listen, port: channel.localAddress?.port)
                signal.listening(at: bound)
                log.info("listening", metadata: ["address": .string(bound.description)])
            }
        )
        defer { removeSocketFile() }
        let events = accounts.events()
        try await withThrowingTaskGroup(of: Ending.self) { group in
            group.addTask {
                for await event in events {
                    switch event {
                    case .updated: metrics.refreshed()
                    case .deleted: metrics.sessionEnded()
                    }
                }
                return .notStopping
            }
            group.addTask {
                do {
                    try await server.run()
                } catch {
                    // Before it listens, the server fails only to bind.
                    guard signal.hostCheck == nil else { throw error }
                    throw GatewayServer.listenFailure(error, listen)
                }
                return .serverStopped
            }
            group.addTask {
                do { try await gracefulShutdown() } catch { return .notStopping }
                log.info(
                    "stopping: no new connections; the requests in flight may finish",
                    metadata: ["grace": .stringConvertible(grace)]
                )
                do { try await Task.sleep(for: grace) } catch { return .notStopping }
                return .graceExpired
            }
            while let ending = try await group.next() {
                switch ending {
                case .serverStopped:
                    group.cancelAll()
                    log.info("stopped")
                    return
                case .graceExpired:
                    // The calls are cut short first, so that their requests are answered 503 on connections still
                    // open; an answer still streaming its body a moment later is cut off with the connections.
                    log.warning("the shutdown grace ran out: cancelling the requests still in flight")
                    upstream.cutShort()
                    group.addTask {
                        do { try await Task.sleep(for: Self.answeringAfterGrace) } catch { return .notStopping }
                        return .answersCutOff
                    }
                case .answersCutOff:
                    group.cancelAll()
                case .notStopping:
                    continue
                }
            }
        }
    }

    /// How the serving ended, as the task group sees it.
    private enum Ending: Sendable {
        case serverStopped
        case graceExpired
        /// The moment after the grace given to the requests cut short to be answered.
        case answersCutOff
        case notStopping
    }

    /// How long the requests cut short at the end of the grace have to write their `503`, before the connections
    /// still open are closed.
    static let answeringAfterGrace: Duration = .seconds(2)

    /// The address to bind: the canonical loopback address, or, once no running server holds the socket path, a
    /// socket in a private directory beside it (``PrivateSocketPath``), moved into place once bound: never, even
    /// for a moment, a socket other users may connect to at the path.
    private func bindAddress() throws -> (BindAddress, PrivateSocketPath?) {
        switch configuration.listen {
        case .tcp(let host, let port):
            return (.hostname(LoopbackHost.canonical(host) ?? host, port: port), nil)
        case .unixSocket(let path):
            // A socket a dead process left is replaced; a live server's is not taken over, and anything else at the
            // path (a file named by mistake) is left alone.
            if UnixSocketProbe.holdsOtherThanSocket(path) {
                throw GatewayError.cannotListen(
                    "unix:\(path)",
                    "something other than a socket is there, and the gateway only replaces a socket a stopped one "
                        + "left; remove it or give another path"
                )
            }
            guard !UnixSocketProbe.isAccepting(path) else {
                throw GatewayError.addressInUse("unix:\(path)", port: nil)
            }
            guard let privatePath = PrivateSocketPath.beside(path) else {
                throw GatewayError.cannotListen("unix:\(path)", String(cString: strerror(errno)))
            }
            guard privatePath.canBind else {
                // Within a few bytes of the limit, where no /proc names the directory in fewer: bound in place, the
                // socket would be 0777 less the umask until its chmod, so it is not bound at all.
                privatePath.discard()
                throw GatewayError.cannotListen(
                    "unix:\(path)",
                    "the path is too long to bind the socket in a private directory first; give a shorter one"
                )
            }
            return (.unixDomainSocket(path: privatePath.bindPath), privatePath)
        }
    }

    /// The address bound: the port chosen, or the socket (0600 at its path, ``PrivateSocketPath/publish()``).
    private static func bound(_ listen: GatewayConfiguration.Listen, port: Int?) -> GatewayConfiguration.Listen {
        switch listen {
        case .tcp(let host, let configured):
            return .tcp(host: LoopbackHost.canonical(host) ?? host, port: port ?? configured)
        case .unixSocket(let path):
            return .unixSocket(path: path)
        }
    }

    /// A failure to bind, in the gateway's words.
    private static func listenFailure(_ error: any Error, _ listen: GatewayConfiguration.Listen) -> any Error {
        guard let error = error as? IOError else {
            return GatewayError.cannotListen("\(listen)", TerminalText.sanitized(String(describing: error)))
        }
        if error.errnoCode == EADDRINUSE {
            if case .tcp(_, let port) = listen { return GatewayError.addressInUse("\(listen)", port: port) }
            return GatewayError.addressInUse("\(listen)", port: nil)
        }
        return GatewayError.cannotListen("\(listen)", String(cString: strerror(error.errnoCode)))
    }

    /// Removes the socket file once the server stopped, when it was this gateway's.
    private func removeSocketFile() {
        guard case .unixSocket(let path) = configuration.listen, listening.hostCheck != nil else { return }
        // The attributes are the link's own (lstat): a link put in the socket's place is left alone.
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        if type == .typeSocket { unlink(path) }
    }
}
