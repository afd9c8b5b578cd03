import ATOAuthTesting
import Foundation
import HTTPTransport
import Keystore
import OAuthMetadata
import OAuthSessionManager
import Synchronization
import Testing

/// The confidential client's private key, and the tokens it gets, never reach what atoauth or the sandbox print,
/// even with `-v`, which logs every HTTP exchange.
@Suite("The client key and the tokens stay out of output and logs")
struct ClientKeyLeakTests {
    /// What a run printed, and the secrets it must not show.
    struct Run {
        /// The standard output and error of each command.
        var outputs: [String] = []
        /// The access and refresh tokens the session held after the sign-in and after the refresh.
        var tokens: [String] = []
    }

    @Test("a confidential sign-in, refresh, status and sign-out with -v print no d, access or refresh token anywhere")
    func verboseConfidentialSession() async throws {
        let key = ClientKey()
        try await ConfidentialSignInTests.withClientDocument(publishing: PublishedKeys([key])) { clientID in
            // Access tokens of 2 s: the whoami below must refresh.
            let sandbox = try await LoggedSandbox(arguments: ["--access-token-lifetime", "2"])
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("atoauth-leak-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let outcome: Result<Run, any Error>
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                outcome = .success(try await Self.run(sandbox, clientID, key, directory))
            } catch {
                outcome = .failure(error)
            }
            let log = await sandbox.stop()
            let printed = try outcome.get()

            #expect(log.contains("bound to client key \(key.keyID)"), "the sandbox's log was read: \(log)")
            #expect(log.contains("rotated the refresh token"), "the sandbox's log was read: \(log)")
            let secrets = try key.printedFormsOfPrivateScalar() + printed.tokens
            for (index, output) in (printed.outputs + [log]).enumerated() {
                let text = output.lowercased()
                for secret in secrets {
                    #expect(!text.contains(secret.lowercased()), "output \(index) shows a secret")
                }
                #expect(!text.contains("client_assertion=ey"), "output \(index) shows a client assertion")
            }
        }
    }

    /// Signs alice.test in as the confidential client with `-v`, pasting the redirect; forces a refresh with
    /// `whoami -v`; shows `accounts status -v`; signs out with `accounts remove -v`.
    private static func run(
        _ sandbox: LoggedSandbox,
        _ clientID: URL,
        _ key: ClientKey,
        _ directory: URL
    ) async throws -> Run {
        let home = directory.appendingPathComponent("home")
        let storeKey = directory.appendingPathComponent("config/store.key")
        let keyFile = directory.appendingPathComponent("client-key.jwk")
        try key.privateJWK.write(to: keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
        var environment = sandbox.environment
        environment["ATOAUTH_HOME"] = home.path
        environment["ATOAUTH_KEY_FILE"] = storeKey.path
        environment["HOME"] = directory.path
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let did = try #require(sandbox.accounts["alice.test"])
        var printed = Run()

        let running = try CLIProcess.start(
            [
                "accounts", "add", "alice.test", "--client-id", clientID.absoluteString, "--client-key", keyFile.path,
                "--no-browser", "-v",
            ],
            environment: environment,
            keepStdinOpen: true
        )
        let before = try await running.waitForStderr(containing: "paste it here and press Enter")
        let approval = try await AsyncHTTPClientTransport.withTransport { transport in
            try await transport.send(HTTPRequest(url: try CLIWorld.authorizationURL(in: before)))
        }
        #expect(approval.status == 302)
        let redirect = try #require(approval.headers["Location"], "the sandbox did not redirect")
        running.write(redirect + "\n")
        let added = try await running.finish()
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stderr.contains("→ POST"), "-v logs each exchange: \(added.stderr)")
        printed.outputs += [before, added.stdout, added.stderr]
        let signedIn = try storedTokens(did, home: home, storeKey: storeKey)

        // Tokens of 2 seconds are within atoauth's refresh margin (10 s): whoami refreshes at once, no wait needed.
        let whoami = try await CLIProcess.run(["-v", "whoami"], environment: environment)
        #expect(whoami.status == 0, "\(whoami.stderr)")
        printed.outputs += [whoami.stdout, whoami.stderr]
        let refreshed = try storedTokens(did, home: home, storeKey: storeKey)
        #expect(refreshed.refresh != signedIn.refresh, "whoami refreshed the session")
        #expect(try await sandbox.counters().refreshGrantsSucceeded == 1)

        let status = try await CLIProcess.run(["-v", "accounts", "status"], environment: environment)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains(key.keyID), "status names the key: \(status.stdout)")
        let removed = try await CLIProcess.run(["-v", "accounts", "remove", "alice.test"], environment: environment)
        #expect(removed.status == 0, "\(removed.stderr)")
        printed.outputs += [status.stdout, status.stderr, removed.stdout, removed.stderr]

        printed.tokens = [signedIn.access, signedIn.refresh, refreshed.access, refreshed.refresh]
        return printed
    }

    /// The access and refresh tokens of the session of `did` in the store under `home`.
    private static func storedTokens(
        _ did: String,
        home: URL,
        storeKey: URL
    ) throws -> (access: String, refresh: String) {
        let store = try EncryptedFileKeystore(directory: home, keySource: .keyFile(storeKey))
        let data = try #require(try store.load("session/\(did)"))
        let session = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let access = try #require(session["accessToken"] as? String)
        let refresh = try #require(session["refreshToken"] as? String)
        #expect(!access.isEmpty && !refresh.isEmpty)
        return (access, refresh)
    }

}

/// `atoauth sandbox --auto-approve -v --json` in its own process, with its log kept: everything it writes on
/// standard output and standard error, as an operator running it sees it.
final class LoggedSandbox: Sendable {
    let process: ChildProcess
    /// The variables it printed for atoauth (`ATOAUTH_PLC_DIRECTORY`, …).
    let environment: [String: String]
    /// Its authorization server's origin.
    let authorizationServer: URL
    /// The DID of each test account, by handle.
    let accounts: [String: String]
    private let stdout: OutputBuffer
    private let stderr: OutputBuffer
    private let pipes: DrainedPipes

    /// Starts the sandbox with extra `arguments` and waits (30 s at most) for the line of its settings.
    init(arguments: [String] = []) async throws {
        let executable = try #require(CLIProcess.executable, "build the atoauth executable first (swift build)")
        let (process, stdout, stderr, pipes) = try DrainedPipes.start(
            executable,
            arguments: ["sandbox", "--auto-approve", "-v", "--json"] + arguments,
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        )
        self.process = process
        self.stdout = stdout
        self.stderr = stderr
        self.pipes = pipes
        let settings = try await process.awaitStart(
            "the sandbox's settings line",
            timeout: .seconds(30),
            failure: SandboxStartFailure(output: stdout.text + stderr.text)
        ) { try Self.settings(in: stdout.text) }
        environment = settings["environment"] as? [String: String] ?? [:]
        authorizationServer =
            (settings["authorizationServer"] as? String).flatMap(URL.init(string:)) ?? URL(fileURLWithPath: "/")
        var accounts: [String: String] = [:]
        for entry in settings["accounts"] as? [[String: String]] ?? [] {
            if let handle = entry["handle"], let did = entry["did"] { accounts[handle] = did }
        }
        self.accounts = accounts
    }

    /// The settings the sandbox prints as its first line of standard output, once that line is whole.
    private static func settings(in text: String) throws -> [String: Any]? {
        guard let end = text.firstIndex(of: "\n") else { return nil }
        guard let settings = try JSONSerialization.jsonObject(with: Data(text[..<end].utf8)) as? [String: Any] else {
            throw SandboxStartFailure(output: text)
        }
        return settings
    }

    /// What the sandbox has counted so far.
    func counters() async throws -> SandboxProcess.Counters {
        let url = authorizationServer.appendingPathComponent("_sandbox/counters")
        let response = try await AsyncHTTPClientTransport.withTransport { try await $0.send(HTTPRequest(url: url)) }
        return try JSONDecoder().decode(SandboxProcess.Counters.self, from: response.body)
    }

    /// Stops the sandbox with Ctrl-C, as a person would, and returns all it wrote: its settings, then its log.
    func stop() async -> String {
        if await !process.stop(SIGINT, within: .seconds(10)) {
            Issue.record("the sandbox did not stop within 10 seconds of Ctrl-C")
        }
        await Waiting.atMost(.seconds(5)) { pipes.allDrained }
        return stdout.text + "\n" + stderr.text
    }
}
