import ATClient
import ATProtoIdentity
import ATProtoSyntax
import AccountManager
import ArgumentParser
import Foundation
import HTTPTransport
import Keystore
import Logging
import OAuthLoopbackListener
import OAuthMetadata
import OAuthSessionManager
import Sandbox

/// `atoauth demo`: the whole flow against an in-process sandbox, step by step.
struct DemoCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Walk the whole OAuth flow against a built-in sandbox, offline, printing each step.",
        discussion: """
            Starts the sandbox in this process and runs the same code as `accounts add`, `whoami` and `xrpc`: \
            resolve the handle, check the metadata, send the PAR (with the DPoP nonce retry), approve, check the \
            callback, exchange the code, call getSession and createRecord with DPoP-bound tokens, refresh, and \
            revoke. Nothing is written to disk. With --json, the steps are printed at the end as one JSON object: \
            ok, sandbox (its origins) and steps (step, title and lines of each).
            """
    )

    /// The demo keeps nothing and resolves only inside its own sandbox; it only reports, in words or JSON.
    static let globalOptions: Set<GlobalOption> = [.json]

    @Option(name: .long, help: "The sandbox account to sign in as.")
    var handle = "alice.test"

    @OptionGroup var global: GlobalOptions<Self>

    func run() async throws {
        let server = SandboxServer(
            configuration: SandboxConfiguration(
                accounts: [SandboxAccount(handle: handle.lowercased()), SandboxAccount(handle: "bob.test")],
                autoApprove: true
            ),
            // The demo reports every step itself; the in-process server only speaks up for critical problems (its
            // shutdown cancels idle keep-alive connections, which Hummingbird logs as errors).
            logger: SandboxServer.standardErrorLogger(level: .critical)
        )
        let endpoints = try await server.start()
        do {
            try await AsyncHTTPClientTransport.withTransport(configuration: Self.limits) { base in
                let log = DemoLog(json: global.json)
                try await walk(
                    endpoints: endpoints,
                    server: server,
                    transport: DemoTransport(base: base, log: log),
                    log: log
                )
            }
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Every exchange of the demo is with the sandbox in this process, on loopback, and answers in milliseconds: a
    /// step that waits for a time limit is a fault, so the limits are short and reaching one fails the demo (and the
    /// test that runs it) instead of stalling it.
    static let limits = AsyncHTTPClientTransport.Configuration(connectTimeout: .seconds(2), totalTimeout: .seconds(5))

    private func walk(
        endpoints: SandboxEndpoints,
        server: SandboxServer,
        transport: any HTTPTransport,
        log: DemoLog
    ) async throws {
        log.note(
            "Sandbox: PLC \(endpoints.plcDirectory.absoluteString), PDS \(endpoints.pds.absoluteString), "
                + "authorization server \(endpoints.authorizationServer.absoluteString)\n"
        )
        var configuration = AccountManager.Configuration()
        configuration.identity = IdentityResolver.Configuration(
            plcDirectory: endpoints.plcDirectory,
            handleResolverService: endpoints.pds
        )
        configuration.allowHTTPLoopback = true
        let accounts = AccountManager(keystore: InMemoryKeystore(), transport: transport, configuration: configuration)
        let listener = try await LoopbackCallbackListener.start()
        let client = try OAuthClient.loopback(redirectURI: listener.redirectURI)

        log.step(1, "Resolve \(handle), check the DID document and both metadata documents, send the PAR")
        let request = try await accounts.authorize(handle, client: client)
        log.detail("client_id \(client.clientID)")
        log.detail("issuer \(request.issuer), account \(request.expectedDID ?? "?")")

        log.step(2, "Approve in the \"browser\" (the sandbox approves at once) and follow the redirect")
        let redirect = try await transport.send(HTTPRequest(url: request.url))
        guard let location = redirect.headers["Location"], let callbackTarget = URL(string: location) else {
            throw CLIFailure(status: .failed, message: "The sandbox did not redirect back.")
        }
        // The listener answers the browser's GET only once told how the sign-in ended, so the GET runs beside the
        // steps that end it and is awaited after `finish`.
        let browser = Task { try await transport.send(HTTPRequest(url: callbackTarget)) }
        defer { browser.cancel() }
        let callback = try await listener.waitForCallback(timeout: Self.limits.totalTimeout)
        log.detail("callback has code, state and iss")

        log.step(3, "Check state and iss, exchange the code, check the tokens and re-resolve the account's issuer")
        let session = try await accounts.callback(callback).account
        await listener.finish(with: .signedIn(as: session.displayName))
        let page = try await browser.value
        log.detail("the browser was shown the listener's page (HTTP \(page.status))")
        log.detail("signed in as \(session.handle?.description ?? "-") (\(session.did)), scope \(session.scope)")

        let connection = try await accounts.restore(.did(session.did))
        let xrpc = try await accounts.client(for: .did(session.did))
        log.step(4, "Call com.atproto.server.getSession with the DPoP-bound access token")
        let info = try await xrpc.getSession()
        log.detail("the PDS says: \(info.handle) \(info.did)")

        log.step(5, "Create a record with com.atproto.repo.createRecord")
        let record = try await xrpc.createRecord(
            repo: session.did.rawValue,
            collection: "app.bsky.feed.post",
            record: DemoPost(text: "Hello from atoauth demo", createdAt: ISO8601DateFormatter().string(from: Date()))
        )
        log.detail("created \(record.uri)")

        log.step(6, "Refresh the tokens (the refresh token rotates; the old one is now spent)")
        let refreshed = try await connection.refresh()
        log.detail(
            "new access token issued; it expires \(refreshed.accessTokenExpiresAt.map { "\($0)" } ?? "unknown")"
        )
        log.detail("refreshes counted by the sandbox: \(server.counters.refreshGrantsSucceeded)")

        log.step(7, "Sign out: revoke the tokens, then delete the session and its DPoP key")
        let removal = try await accounts.remove(.did(session.did))
        if case .account(_, let revocation) = removal.removed {
            log.detail("revocation: \(revocation == .revoked ? "confirmed by the server" : "\(revocation)")")
        }
        let probe = try await connection.sendAsLastRead(.get, path: "/xrpc/com.atproto.server.getSession")
        log.detail("the revoked access token now gets HTTP \(probe.status) from the PDS")
        guard probe.status == 401 else {
            throw CLIFailure(status: .failed, message: "The revoked access token still worked.")
        }
        log.note("\nDone: every step used DPoP proofs (ES256); no token was printed or stored on disk.")
        log.finish(sandbox: [
            "plcDirectory": endpoints.plcDirectory.absoluteString, "pds": endpoints.pds.absoluteString,
            "authorizationServer": endpoints.authorizationServer.absoluteString,
        ])
    }
}

private struct DemoPost: Encodable, Sendable {
    var type = "app.bsky.feed.post"
    var text: String
    var createdAt: String

    enum CodingKeys: String, CodingKey {
        case type = "$type"
        case text
        case createdAt
    }
}
