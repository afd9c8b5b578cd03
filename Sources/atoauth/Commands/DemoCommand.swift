import ATClient
import ATProtoIdentity
import AccountManager
import ArgumentParser
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Keystore
import Logging
import OAuthLoopbackListener
import OAuthSessionManager
import Sandbox

/// `atoauth demo`: the whole flow against an in-process sandbox, step by step.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Walk the whole OAuth flow against a built-in sandbox, offline, printing each step.",
        discussion: """
            Starts the sandbox in this process and runs the same code as `accounts add`, `whoami` and `xrpc`:
            resolve the handle, check the metadata, send the PAR (with the DPoP nonce retry), approve, check the
            callback, exchange the code, call getSession and createRecord with DPoP-bound tokens, refresh, and
            revoke. Nothing is written to disk.
            """
    )

    @Option(name: .long, help: "The sandbox account to sign in as.")
    var handle = "alice.test"

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
            try await AsyncHTTPClientTransport.withTransport { base in
                try await walk(endpoints: endpoints, server: server, transport: DemoTransport(base: base))
            }
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    private func walk(endpoints: SandboxEndpoints, server: SandboxServer, transport: any HTTPTransport) async throws {
        Output.line(
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
        let manager = accounts.sessions
        let listener = try await LoopbackCallbackListener.start()
        let client = try OAuthClient.loopback(redirectURI: listener.redirectURI)

        step(1, "Resolve \(handle), check the DID document and both metadata documents, send the PAR")
        let request = try await accounts.authorize(handle, client: client)
        Output.line("      client_id \(client.clientID)")
        Output.line("      issuer \(request.issuer), account \(request.expectedDID ?? "?")")

        step(2, "Approve in the \"browser\" (the sandbox approves at once) and follow the redirect")
        let redirect = try await transport.send(HTTPRequest(url: request.url))
        guard let location = redirect.headers["Location"], let callbackTarget = URL(string: location) else {
            throw CLIFailure(status: CLIFailure.failed, message: "The sandbox did not redirect back.")
        }
        _ = try? await transport.send(HTTPRequest(url: callbackTarget))
        let callback = try await listener.waitForCallback(timeout: .seconds(10))
        Output.line("      callback has code, state and iss")

        step(3, "Check state and iss, exchange the code, check the tokens and re-resolve the account's issuer")
        let session = try await accounts.callback(callback)
        await listener.finish(with: .signedIn(as: session.displayName))
        Output.line("      signed in as \(session.handle?.description ?? "-") (\(session.did)), scope \(session.scope)")

        let xrpc = try await accounts.client(for: session.did.rawValue)
        step(4, "Call com.atproto.server.getSession with the DPoP-bound access token")
        let info = try await xrpc.getSession()
        Output.line("      the PDS says: \(info.handle) \(info.did)")

        step(5, "Create a record with com.atproto.repo.createRecord")
        let record = try await xrpc.createRecord(
            repo: session.did.rawValue,
            collection: "app.bsky.feed.post",
            record: DemoPost(text: "Hello from atoauth demo", createdAt: ISO8601DateFormatter().string(from: Date()))
        )
        Output.line("      created \(record.uri)")

        step(6, "Refresh the tokens (the refresh token rotates; the old one is now spent)")
        let refreshed = try await manager.refresh(did: session.did, replacing: nil)
        Output.line(
            "      new access token issued; it expires \(refreshed.accessTokenExpiresAt.map { "\($0)" } ?? "unknown")"
        )
        Output.line("      refreshes counted by the sandbox: \(server.counters.refreshGrantsSucceeded)")

        step(7, "Sign out: revoke the tokens, then delete the session and its DPoP key")
        let key = try await manager.dpopKey(for: session.did)
        let result = try await manager.signOut(did: session.did)
        Output.line("      revocation: \(result == .revoked ? "confirmed by the server" : "\(result)")")
        let probe = try await DPoPRequestExecutor(transport: transport, key: key, nonceCache: manager.nonceCache)
            .send(
                HTTPRequest(url: refreshed.pds.appendingPathComponent("xrpc/com.atproto.server.getSession")),
                accessToken: refreshed.accessToken
            )
        Output.line("      the revoked access token now gets HTTP \(probe.status) from the PDS")
        guard probe.status == 401 else {
            throw CLIFailure(status: CLIFailure.failed, message: "The revoked access token still worked.")
        }
        Output.line("\nDone: every step used DPoP proofs (ES256); no token was printed or stored on disk.")
    }

    private func step(_ number: Int, _ text: String) {
        Output.line("\(number). \(text)")
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
