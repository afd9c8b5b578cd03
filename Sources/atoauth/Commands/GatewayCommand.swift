import ATProtoSyntax
import AccountManager
import ArgumentParser
import CProcessGuard
import Foundation
import Gateway
import Logging
import ServiceLifecycle
import UnixSignals
import WireFormat

/// `atoauth gateway`.
struct GatewayCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "gateway",
        abstract: "Serve the signed-in accounts to local programs: plain HTTP in, signed XRPC out.",
        discussion: """
            For scripts and services in any language: they call http://127.0.0.1:8787/xrpc/<nsid> with plain \
            HTTP, and atoauth forwards each call to the account's PDS as `atoauth xrpc` would (DPoP proof, \
            nonces, refresh, permission checks) and passes the answer back, bodies streamed both ways. Keys and \
            tokens never leave atoauth. It runs in the foreground until SIGTERM or Ctrl-C.

            The token. Every request but GET /_gateway/health needs Authorization: Bearer <token>. A new random \
            token is made at each start and written alone on one line to --token-file (mode 0600; default \
            <home>/gateway-token) once the gateway listens. Only its path is printed, never the token. The file is \
            this gateway's while it runs (a lock on <file>.lock): a second gateway on it exits 1 naming the first \
            one's PID and address, and leaves the token alone. A clean stop removes it.

            The start-up token opens every account the store holds, unless --allow-account limits it (and every \
            other token of this gateway). Named tokens (atoauth gateway token create) lend less: some accounts \
            (403 AccountNotAllowed otherwise), some permissions (403 ScopeMissingError), for some time (401 \
            TokenExpired); every gateway on the same store honours them until revoked. No token may call \
            createSession, refreshSession, deleteSession, createAppPassword or revokeAppPassword (403 \
            MethodNotAllowed).

            The account. The atoauth-account header (a handle or DID; one not signed in here is refused, never \
            served as another), else the account the request's repo names, else --account, else the account \
            active at the time of the request.

            Headers. atproto-proxy, atproto-accept-labelers, Accept and other fields are passed on; \
            Authorization, DPoP, Cookie and hop-by-hop fields never are. A browser's request (Origin) and one for \
            another Host are refused. The answer keeps the PDS's status, Content-Type, Content-Length and \
            atproto-* and ratelimit-* fields.

            Errors are JSON, {"error":"<Name>","message":"..."}: AuthRequired (401), Forbidden (403), \
            AccountNotSignedIn (403), ScopeMissingError (403), SessionEnded (401), InvalidRequest (400), \
            PayloadTooLarge (413), Overloaded (503), UpstreamFailed (502), UpstreamInvalid (502: the PDS's status was \
            outside 200-599, or 101). GET /_gateway/metrics serves \
            Prometheus metrics.

            Prints `listening on http://127.0.0.1:PORT` (or `listening on unix:PATH`) on stdout once it listens, \
            and one log line per request on stderr. With --print-env it prints ATOAUTH_GATEWAY_URL=... and \
            ATOAUTH_GATEWAY_TOKEN_FILE=... lines instead, for a script to source or eval.

            Connections. A refused request's body is never read: the answer says Connection: close. A request \
            head, and a body received whole, must arrive within 10 seconds; at most --max-connections are open. On SIGTERM or Ctrl-C it stops accepting, lets the requests \
            in flight finish for up to --shutdown-grace seconds, and exits 0.

            Examples:
              atoauth gateway --account alice.bsky.social --print-env > gateway.env &
              set -a; . ./gateway.env; set +a    # once the two lines are there
              TOKEN=$(cat "$ATOAUTH_GATEWAY_TOKEN_FILE")
              curl -H "Authorization: Bearer $TOKEN" \\
                "$ATOAUTH_GATEWAY_URL/xrpc/com.atproto.server.getSession"
              curl -H "Authorization: Bearer $TOKEN" \\
                -H "atoauth-account: bob.bsky.social" \\
                -H "Content-Type: application/json" \\
                --data @record.json \\
                http://127.0.0.1:8787/xrpc/com.atproto.repo.createRecord
              atoauth gateway --socket /run/user/1000/atoauth.sock
              curl --unix-socket /run/user/1000/atoauth.sock \\
                -H "Authorization: Bearer $TOKEN" \\
                http://localhost/xrpc/com.atproto.server.getSession
            """,
        subcommands: [GatewayTokenCommand.self]
    )

    static let globalOptions = GlobalOption.signedInRequests
    static let globalOptionHelp: [GlobalOption: String] = [
        .account: "The account a request goes out as when it names none (no atoauth-account header, no repo) "
            + "(env ATOAUTH_ACCOUNT); default: the account active at the time of the request."
    ]

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Listen on this loopback address: 127.0.0.0/8, [::1] or localhost (default 127.0.0.1:\(defaultPort); "
                + "port 0 for any free one).",
            valueName: "host:port"
        ),
        transform: HostAndPort.parse
    )
    var listen: HostAndPort?

    @Option(
        name: .long,
        help: ArgumentHelp("Listen on a Unix socket at this path instead (made 0600).", valueName: "path"),
        completion: .file()
    )
    var socket: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Where to write the token (mode 0600; default <home>/gateway-token).", valueName: "path"),
        completion: .file()
    )
    var tokenFile: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The largest request body: bytes, or with K, M or G for KiB, MiB or GiB (default 100M).",
            valueName: "bytes"
        ),
        transform: ByteCount.parse
    )
    var maxBody: ByteCount?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The most XRPC requests in flight; more are refused with 503 (default \(defaultMaximumConcurrent)).",
            valueName: "n"
        )
    )
    var maxConcurrent: Int?

    @Option(
        name: .long,
        help: ArgumentHelp("How long a stop waits for the requests in flight (default 10).", valueName: "seconds"),
        transform: Seconds.parser("--shutdown-grace", within: 0...3600)
    )
    var shutdownGrace: Seconds?

    @Flag(name: .long, help: "Count requests by account DID in the metrics (by default no DID is in a metric).")
    var metricsPerAccount = false

    // Start-up and connections (issue #34 items 4 and 5).
    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Once listening, print ATOAUTH_GATEWAY_URL=… and ATOAUTH_GATEWAY_TOKEN_FILE=… lines on stdout (and "
                + "ATOAUTH_GATEWAY_SOCKET=… with --socket), shell-quoted, instead of the `listening on` line."
        )
    )
    var printEnv = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The most connections open at once; one more is closed as soon as it is accepted (default "
                + "--max-concurrent + \(GatewayConfiguration.connectionsBeyondRequests)).",
            valueName: "n"
        )
    )
    var maxConnections: Int?

    // Named tokens and the audit trail (issue #34 items 1–3).
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Limit every token of this gateway, the start-up token's included, to this account; repeat for several. "
                + "Without it the start-up token opens every account the store holds.",
            valueName: "handle-or-did"
        ),
        completion: AccountCompletion.signedIn
    )
    var allowAccount: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Append one JSON line per answered request to this file (made 0600): time, token name, account DID, "
                + "method, NSID, status, error, bytes and milliseconds; never a token, body or value.",
            valueName: "path"
        ),
        completion: .file()
    )
    var auditLog: String?

    @Flag(name: .long, help: "Count requests by token name in the metrics.")
    var metricsPerToken = false

    @OptionGroup var global: GlobalOptions<Self>

    /// The port when `--listen` is not given.
    static let defaultPort = 8787
    /// `--max-concurrent` when not given.
    static let defaultMaximumConcurrent = GatewayConfiguration.defaultMaximumConcurrentRequests
    /// The largest `--max-concurrent`.
    static let maximumConcurrent = 100_000
    /// The largest `--max-connections`.
    static let maximumConnections = 1_000_000

    func validate() throws {
        if listen != nil, socket != nil {
            throw ValidationError("--listen and --socket are alternatives: give one.")
        }
        do {
            try listenAddress().check()
        } catch let error as GatewayError {
            throw ValidationError(error.description)
        }
        if let maxConcurrent, !(1...Self.maximumConcurrent).contains(maxConcurrent) {
            throw ValidationError("--max-concurrent must be a number of requests from 1 to \(Self.maximumConcurrent).")
        }
        if let maxConnections, !(1...Self.maximumConnections).contains(maxConnections) {
            throw ValidationError(
                "--max-connections must be a number of connections from 1 to \(Self.maximumConnections)."
            )
        }
    }

    func run() async throws {
        let listen = listenAddress()
        let admitted = maxConcurrent ?? Self.defaultMaximumConcurrent
        var settings = try GlobalSettings(global, environment: ProcessInfo.processInfo.environment)
        // Every call admitted gets a connection to its PDS at once: one waiting behind long uploads for a free
        // connection would fail after the connect timeout.
        settings.connectionsPerHost = admitted
        // With --json, stderr is the gateway's log: the store's warnings and -v's exchanges are records too.
        settings.logsJSONLines = global.json
        let logger = Self.logger(verbose: settings.verbose, json: global.json)
        Self.raiseOpenFileLimit(for: admitted, json: global.json, log: logger)
        try await CLIContext.run(settings) { context in
            let fallback = try await fallbackAccount(context, log: logger)
            let tokenURL =
                tokenFile.map { URL(fileURLWithPath: $0) } ?? context.home.appendingPathComponent("gateway-token")
            // Held until the gateway stops: a second gateway on this file stops here, leaving the token alone.
            let claimed = try GatewayTokenFile.claim(tokenURL)
            defer { claimed.remove() }
            let token = GatewayToken.generate()
            var configuration = GatewayConfiguration(
                listen: listen,
                token: token,
                spoolDirectory: context.home.appendingPathComponent("gateway-spool", isDirectory: true),
                fallbackAccount: fallback,
                maximumBodyBytes: maxBody?.bytes ?? GatewayConfiguration.defaultMaximumBodyBytes,
                maximumConcurrentRequests: admitted,
                metricsPerAccount: metricsPerAccount
            )
            if let shutdownGrace { configuration.shutdownGrace = shutdownGrace.duration }
            try await lending(into: &configuration, context)
            configuration.maximumConnections = maxConnections
            let server = try GatewayServer(configuration: configuration, accounts: context.accounts, logger: logger)
            do {
                let announcement = Announcement(json: global.json, printEnv: printEnv)
                try await Self.serve(server, token: token, file: claimed, announcing: announcement, logger: logger)
            } catch let error as GatewayError where error.code == .addressInUse {
                let advice =
                    socket == nil
                    ? "Give another with --listen 127.0.0.1:PORT (0 for any free port), or stop what holds it."
                    : "Stop the gateway that uses it, or give another --socket path."
                throw CLIFailure(status: CLIFailure.failed, message: error.description + " " + advice)
            }
        }
    }

    /// Runs `server` until SIGTERM or Ctrl-C, each a graceful stop; once it listens, writes `token` to `file` and
    /// announces where it listens.
    private static func serve(
        _ server: GatewayServer,
        token: String,
        file: GatewayTokenFile,
        announcing announcement: Announcement,
        logger: Logger
    ) async throws {
        let json = announcement.json
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [server],
                gracefulShutdownSignals: [.sigterm],
                cancellationSignals: [],
                logger: logger
            )
        )
        // Not a child task: Ctrl-C cancels the command's task, which becomes the same graceful stop as SIGTERM
        // instead of cutting the requests in flight off.
        let running = Task { try await group.run() }
        try await withTaskCancellationHandler {
            let address: GatewayConfiguration.Listen
            do {
                address = try await server.boundAddress()
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
            try announcement.listening(at: address, tokenFile: file.url)
            note(
                "The gateway token is in \(file.url.path) (mode 0600, new at each start, removed at a stop): send it "
                    + "as Authorization: Bearer <token>.",
                json: json,
                log: logger
            )
            try await running.value
        } onCancel: {
            Task { await group.triggerGracefulShutdown() }
        }
    }

    /// Where to listen: `--socket`, else `--listen`, else 127.0.0.1 on the default port.
    private func listenAddress() -> GatewayConfiguration.Listen {
        if let socket { return .unixSocket(path: socket) }
        return .tcp(host: listen?.host ?? "127.0.0.1", port: listen?.port ?? Self.defaultPort)
    }

    /// Raises the limit on open files to what `admitted` calls in flight may use; says so when the hard limit is lower.
    ///
    /// Each call holds its client's connection, one to the PDS and, for a large body, a spool file.
    private static func raiseOpenFileLimit(for admitted: Int, json: Bool, log: Logger) {
        let needed = 3 * admitted + 256
        let limit = cprocessguard_raise_open_files(needed)
        guard limit >= 0, limit < needed else { return }
        note(
            "Note: this process may open \(limit) files, fewer than the \(needed) that --max-concurrent \(admitted) "
                + "can need; raise the hard limit (ulimit -Hn, LimitNOFILE= in a systemd unit) or lower --max-concurrent.",
            json: json,
            log: log
        )
    }

    /// A note for the person running the gateway: a sentence on stderr, or with `--json` a `notice` record of the
    /// log, like every other line there (without the `Note: ` the sentence starts with).
    private static func note(_ text: String, json: Bool, log: Logger) {
        guard json else { return Output.message(text) }
        log.notice("\(text.hasPrefix("Note: ") ? String(text.dropFirst("Note: ".count)) : text)")
    }

    /// The account for requests that name none: `--account` (or `ATOAUTH_ACCOUNT`), which must be signed in, by its
    /// DID; else `nil`, the active account at the time of each request.
    private func fallbackAccount(_ context: CLIContext, log: Logger) async throws -> ATIdentifier? {
        guard let name = context.selectedAccount else {
            if try await context.accounts.accounts().isEmpty {
                Self.note(
                    "Note: no account is signed in here yet; calls are refused with AccountNotSignedIn until one is "
                        + "(atoauth accounts add <handle>).",
                    json: global.json,
                    log: log
                )
            }
            return nil
        }
        let account: ATIdentifier = try AccountName.identifier(name)
        return .did(try await context.accounts.account(account).did)
    }

    /// The gateway's log on stderr: one line per record, as text or (with `--json`) as JSON; debug records with
    /// `-v` (the account's DID on each request line).
    static func logger(verbose: Bool, json: Bool) -> Logger {
        LineLogHandler.logger(label: "atoauth.gateway", json: json, level: verbose ? .debug : .info)
    }
}
