import ATProtoSyntax
import ArgumentParser
import Foundation
import Gateway

/// The options of `atoauth gateway`, each parsed by its own type; ``configuration(token:home:accounts:)`` gives
/// the gateway's settings from them.
struct GatewayOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Listen on this loopback address: 127.0.0.0/8, [::1] or localhost (default "
                + "127.0.0.1:\(GatewayConfiguration.defaultPort); port 0 for any free one).",
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
            "The most XRPC requests in flight; more are refused with 503 (default "
                + "\(GatewayConfiguration.defaultMaximumConcurrentRequests)).",
            valueName: "n"
        ),
        transform: WholeNumber.parser("--max-concurrent", within: 1...maximumConcurrent, unit: "requests")
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
        ),
        transform: WholeNumber.parser("--max-connections", within: 1...maximumConnections, unit: "connections")
    )
    var maxConnections: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Limit every token of this gateway, the start-up token's included, to this account; repeat for several. "
                + "Without it the start-up token opens every account the store holds.",
            valueName: "handle-or-did"
        ),
        completion: AccountCompletion.signedIn,
        transform: AccountArgument.parse
    )
    var allowAccount: [AccountArgument] = []

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

    /// The largest `--max-concurrent`.
    static let maximumConcurrent = 100_000
    /// The largest `--max-connections`.
    static let maximumConnections = 1_000_000

    func validate() throws {
        if listen != nil, socket != nil {
            throw ValidationError("--listen and --socket are alternatives: give one.")
        }
        do {
            try listenAddress.check()
        } catch let error as GatewayError {
            throw ValidationError(error.description)
        }
    }

    /// Where to listen: `--socket`, else `--listen`, else the gateway's default.
    var listenAddress: GatewayConfiguration.Listen {
        if let socket { return .unixSocket(path: socket) }
        return listen.map { .tcp(host: $0.host, port: $0.port) } ?? GatewayConfiguration.defaultListen
    }

    /// How many XRPC requests may be in flight at once.
    var admitted: Int { maxConcurrent ?? GatewayConfiguration.defaultMaximumConcurrentRequests }

    /// The gateway's settings: these options, `token`, the spool under `home`, and the accounts (by DID) of
    /// `--account` (the fallback) and `--allow-account`.
    func configuration(
        token: String,
        home: URL,
        accounts: (fallback: ATIdentifier?, allowed: Set<DID>?)
    ) -> GatewayConfiguration {
        var configuration = GatewayConfiguration(
            listen: listenAddress,
            token: token,
            spoolDirectory: home.appendingPathComponent("gateway-spool", isDirectory: true),
            fallbackAccount: accounts.fallback,
            maximumBodyBytes: maxBody?.bytes ?? GatewayConfiguration.defaultMaximumBodyBytes,
            maximumConcurrentRequests: admitted,
            metricsPerAccount: metricsPerAccount
        )
        if let shutdownGrace { configuration.shutdownGrace = shutdownGrace.duration }
        configuration.maximumConnections = maxConnections
        configuration.allowedAccounts = accounts.allowed
        configuration.auditLog = auditLog.map { URL(fileURLWithPath: $0) }
        configuration.metricsPerToken = metricsPerToken
        return configuration
    }
}
