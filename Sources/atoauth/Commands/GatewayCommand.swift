import ArgumentParser
import Foundation
import Gateway
import Logging

/// `atoauth gateway`: reads its options, runs the gateway (``GatewayServer``) until it stops, and says where it
/// listens.
struct GatewayCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "gateway",
        abstract: "Serve the signed-in accounts to local programs: plain HTTP in, signed XRPC out.",
        discussion: discussion,
        subcommands: [GatewayTokenCommand.self]
    )

    static let globalOptions = GlobalOption.signedInRequests
    static let globalOptionHelp: [GlobalOption: String] = [
        .account: "The account a request goes out as when it names none (no atoauth-account header, no repo) "
            + "(env ATOAUTH_ACCOUNT); default: the account active at the time of the request."
    ]

    @OptionGroup var options: GatewayOptions

    @OptionGroup var global: GlobalOptions<Self>

    func run() async throws {
        var settings = try GlobalSettings(global, environment: ProcessInfo.processInfo.environment)
        // Every call admitted gets a connection to its PDS at once: one waiting behind long uploads for a free
        // connection would fail after the connect timeout.
        settings.connectionsPerHost = options.admitted
        // With --json, stderr is the gateway's log: the store's warnings and -v's exchanges are records too.
        settings.logsJSONLines = global.json
        let logger = Self.logger(verbose: settings.verbose, json: global.json)
        try await CLIContext.run(settings) { context in
            let accounts = try await lentAccounts(context, log: logger)
            let token = GatewayToken.generate()
            var configuration = options.configuration(token: token, home: context.home, accounts: accounts)
            if let limit = configuration.raiseOpenFileLimit() {
                let needed = configuration.openFilesNeeded
                configuration = configuration.fitted(toOpenFiles: limit)
                note(
                    "Note: this process may open \(limit) files, fewer than the \(needed) that "
                        + "--max-concurrent \(options.admitted) can need, so it takes at most "
                        + "\(configuration.connectionLimit) connections and \(configuration.maximumConcurrentRequests) "
                        + "requests at once; raise the hard limit (ulimit -Hn, LimitNOFILE= in a systemd unit) or "
                        + "lower --max-concurrent.",
                    log: logger
                )
            }
            // Held until the gateway stops: a second gateway on this file stops here, leaving the token alone.
            let file = try GatewayTokenFile.claim(
                options.tokenFile.map { URL(fileURLWithPath: $0) }
                    ?? context.home.appendingPathComponent("gateway-token")
            )
            defer { file.remove() }
            let server = try GatewayServer(configuration: configuration, accounts: context.accounts, logger: logger)
            do {
                try await server.runUntilStopped(publishing: token, in: file, logger: logger) { address in
                    try Announcement(json: global.json, printEnv: options.printEnv)
                        .listening(at: address, tokenFile: file.url)
                    note(
                        "The gateway token is in \(file.url.path) (mode 0600, new at each start, removed at a stop): "
                            + "send it as Authorization: Bearer <token>.",
                        log: logger
                    )
                }
            } catch let error as GatewayError where error.code == .addressInUse {
                let advice =
                    options.socket == nil
                    ? "Give another with --listen 127.0.0.1:PORT (0 for any free port), or stop what holds it."
                    : "Stop the gateway that uses it, or give another --socket path."
                throw CLIFailure(status: .failed, message: error.description + " " + advice)
            }
        }
    }

    /// A note for the person running the gateway: a sentence on stderr, or with `--json` a `notice` record of the
    /// log, like every other line there (without the `Note: ` the sentence starts with).
    func note(_ text: String, log: Logger) {
        guard global.json else { return Output.message(text) }
        log.notice("\(text.hasPrefix("Note: ") ? String(text.dropFirst("Note: ".count)) : text)")
    }

    /// The gateway's log on stderr: one line per record, as text or (with `--json`) as JSON; debug records with
    /// `-v` (the account's DID on each request line).
    static func logger(verbose: Bool, json: Bool) -> Logger {
        LineLogHandler.logger(label: "atoauth.gateway", json: json, level: verbose ? .debug : .info)
    }
}
