import ATOAuth
import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore

/// `atoauth-web-example`: a web service with "Sign in with Bluesky", signing its users in as a confidential OAuth
/// client (`private_key_jwt`) and calling XRPC as each of them.
@main
struct WebSignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "atoauth-web-example",
        abstract: "A web service with \"Sign in with Bluesky\": atoauth as a confidential client.",
        discussion: """
            Serves on 127.0.0.1: its client metadata document at /client-metadata.json (the client_id), a page \
            with the sign-in form at /, the OAuth callback at /callback, and at /copy-address a static page that \
            only shows its own address, the redirect of an operator's sign-in from a terminal (atoauth accounts add \
            --client-key). On first start it adds a signing key to the store's client key set; the document \
            publishes every key of the set.

            Against the sandbox (development only):

              atoauth sandbox &
              export ATOAUTH_PLC_DIRECTORY=... ATOAUTH_HANDLE_RESOLVER=... ATOAUTH_ALLOW_HTTP_LOOPBACK=1
              atoauth-web-example --port 8080 --home /tmp/example

            then open http://127.0.0.1:8080/ and sign in as alice.test. Deployed, it runs behind an https proxy: \
            --public-url https://example.com.

            To sign a bot's account in from a terminal into the same store, with the kid `atoauth client keys \
            --home /tmp/example` shows:

              atoauth accounts add alice.test --home /tmp/example \\
                --client-id http://127.0.0.1:8080/client-metadata.json --client-key <kid> \\
                --redirect-uri http://127.0.0.1:8080/copy-address
            """
    )

    @Option(help: "The port to listen on, on 127.0.0.1; 0 for any free port.")
    var port = 8080

    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(
            "The service's origin as browsers and servers reach it (default http://127.0.0.1:<port>).",
            valueName: "url"
        )
    )
    var publicURL: String?

    @Option(help: ArgumentHelp("Where the encrypted store is kept (env ATOAUTH_HOME).", valueName: "dir"))
    var home: String?

    @Option(
        help: ArgumentHelp(
            "A postgresql:// URL: keep sessions and keys in that database instead (env ATOAUTH_STORE).",
            valueName: "url"
        )
    )
    var store: String?

    @Flag(
        name: .customLong("allow-http-loopback"),
        help: "Development only: accept http:// loopback addresses (env ATOAUTH_ALLOW_HTTP_LOOPBACK=1)."
    )
    var allowHTTPLoopback = false

    @Option(
        name: .customLong("plc-directory"),
        help: "Where did:plc documents are fetched (env ATOAUTH_PLC_DIRECTORY)."
    )
    var plcDirectory: String?

    @Option(
        name: .customLong("handle-resolver"),
        help: "A resolveHandle service used instead of DNS and HTTPS (env ATOAUTH_HANDLE_RESOLVER)."
    )
    var handleResolver: String?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes 0 (any free port) to 65535.") }
    }

    func run() async throws {
        let settings = try Settings(self, environment: ProcessInfo.processInfo.environment)
        let logger = Self.logger(level: .info)
        // AsyncHTTPClient's own connection events are not what the log is for.
        let transportLogger = Self.logger(level: .warning)
        try await settings.withKeystore(logger: logger) { keystore in
            try await AsyncHTTPClientTransport.withTransport(logger: transportLogger) { transport in
                let accounts = AccountManager(
                    keystore: keystore,
                    transport: transport,
                    configuration: settings.accountConfiguration(logger: logger)
                )
                try await ClientDocument.ensureSigningKey(accounts, logger: logger)
                let site = Site(accounts: accounts, origin: PublicOrigin(settings.publicURL))
                try await Self.serve(site, port: settings.port, logger: logger)
            }
        }
    }

    /// A logger writing on standard error.
    private static func logger(level: Logger.Level) -> Logger {
        var logger = Logger(label: "atoauth-web-example") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        return logger
    }

    /// Serves the site on 127.0.0.1 until SIGINT or SIGTERM, then stops gracefully.
    ///
    /// Once the port is bound it prints `listening on http://127.0.0.1:<port>` on standard output, for scripts and
    /// tests that start the service on any free port.
    private static func serve(_ site: Site, port: Int, logger: Logger) async throws {
        let origin = site.origin
        let application = Application(
            router: site.router(),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                origin.bind(port: bound)
                FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(bound)\n".utf8))
                logger.info("client_id \(ClientDocument.clientID(origin: origin.text))")
            },
            logger: logger
        )
        try await application.runService()
    }
}
