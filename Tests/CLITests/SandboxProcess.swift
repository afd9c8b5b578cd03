import ATOAuthTesting
import Foundation
import HTTPTransport
import Synchronization
import Testing

/// `atoauth sandbox` running as its own process, as users run it: the tests read its printed settings, its
/// counters and change its settings through its loopback control endpoints.
final class SandboxProcess: Sendable {
    struct Counters: Decodable {
        var authorizationCodeGrantsSucceeded: Int
        var refreshGrantsSucceeded: Int
        var refreshTokenReplays: Int
        var nonceChallengesSent: Int
        var injectedRefreshFailures: Int
        var revocations: Int
        var xrpcRequestsReceived: Int
        var xrpcRequestHeadsReceived: Int
        var totalRejections: Int
        var legacySessionsCreated: Int
        var legacyRefreshesSucceeded: Int
        var legacyRefreshTokenReuses: Int
        var legacySessionsDeleted: Int
        var blobsStored: Int
    }

    let process: ChildProcess
    let environment: [String: String]
    let authorizationServer: URL
    let pds: URL
    let accounts: [String: String]
    /// Each test account's app password, by handle, as the sandbox printed them.
    let appPasswords: [String: String]
    /// The sign-in code of each two-factor account, by handle.
    let signInCodes: [String: String]

    /// Starts the sandbox with extra arguments and waits until it prints its settings.
    init(arguments: [String] = [], autoApprove: Bool = true) async throws {
        let arguments = ["sandbox"] + (autoApprove ? ["--auto-approve"] : []) + arguments
        let (process, text) = try await Self.launch(arguments, until: "atoauth accounts add")
        self.process = process
        var environment: [String: String] = [:]
        var accounts: [String: String] = [:]
        var secrets: [String: [String: String]] = [:]
        var authorizationServer: URL?
        var pds: URL?
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("export "), let equals = line.firstIndex(of: "=") {
                environment[String(line[line.index(line.startIndex, offsetBy: 7)..<equals])] =
                    String(line[line.index(after: equals)...])
            } else if line.hasPrefix("Authorization server:") {
                authorizationServer = URL(string: String(line.split(separator: " ").last ?? ""))
            } else if line.hasPrefix("PDS:") {
                pds = URL(string: String(line.split(separator: " ").last ?? ""))
            } else if let label = ["App passwords:", "Sign-in codes:"].first(where: { line.hasPrefix($0) }) {
                for entry in line.dropFirst(label.count).split(separator: ",") {
                    let parts = entry.split(separator: " ")
                    if parts.count == 2 { secrets[label, default: [:]][String(parts[0])] = String(parts[1]) }
                }
            } else if line.hasPrefix("Accounts:") {
                for entry in line.dropFirst("Accounts:".count).split(separator: ",") {
                    let parts = entry.split(separator: " ")
                    if parts.count == 2 {
                        accounts[String(parts[0])] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "()"))
                    }
                }
            }
        }
        self.environment = environment
        self.accounts = accounts
        self.appPasswords = secrets["App passwords:"] ?? [:]
        self.signInCodes = secrets["Sign-in codes:"] ?? [:]
        guard let authorizationServer, let pds else {
            process.signal(SIGKILL)
            throw SandboxStartFailure(output: text)
        }
        self.authorizationServer = authorizationServer
        self.pds = pds
    }

    /// Starts `atoauth arguments…` with only PATH set, collecting its stdout from a Dispatch thread, and returns
    /// once the output contains `marker`.
    static func launch(_ arguments: [String], until marker: String) async throws -> (ChildProcess, String) {
        let executable = try #require(CLIProcess.executable, "build the atoauth executable first (swift build)")
        let pipe = Pipe()
        let process = try ChildProcess(
            executable,
            arguments,
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
            output: .pipe(pipe)
        )
        let handle = pipe.fileHandleForReading
        let output = OutputBuffer()
        output.fill(from: handle)
        let text = try await process.awaitStart(
            "the sandbox to print “\(marker)”",
            timeout: .seconds(30),
            failure: SandboxStartFailure(output: output.text)
        ) { output.text.contains(marker) ? output.text : nil }
        return (process, text)
    }

    /// The authorization server's issuer string.
    var issuer: String { authorizationServer.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) }

    /// What the sandbox has counted so far.
    func counters() async throws -> Counters {
        let response = try await control(
            HTTPRequest(url: authorizationServer.appendingPathComponent("_sandbox/counters"))
        )
        return try JSONDecoder().decode(Counters.self, from: response.body)
    }

    /// Changes settings of the running sandbox (see `atoauth sandbox --help`).
    func configure(_ settings: String) async throws {
        let response = try await control(
            HTTPRequest(
                method: .post,
                url: authorizationServer.appendingPathComponent("_sandbox/settings"),
                headers: ["Content-Type": "application/json"],
                body: Data(settings.utf8)
            )
        )
        #expect(response.status == 200)
    }

    /// Lets the access tokens issued so far expire without waiting for them: moves the sandbox's clock
    /// (`clockSkew`, once per sandbox) past `lifetime`, the seconds they were issued for, and applies `settings` (by
    /// default, tokens issued from now on live an hour), so exactly one refresh is due however many processes look.
    ///
    /// atoauth's clock needs no move: it refreshes a token that expires within its refresh margin (10 s), which a
    /// token of a few seconds always does.
    func expireAccessTokens(
        issuedFor lifetime: Int = 2,
        then settings: String = #"{"accessTokenLifetime": 3600}"#
    ) async throws {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(settings.utf8)) as? [String: Any])
        object["clockSkew"] = lifetime + 1
        try await configure(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
    }

    func control(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await AsyncHTTPClientTransport.withTransport { try await $0.send(request) }
    }

    /// Stops the sandbox with Ctrl-C, as a person would.
    func stop() async {
        if await !process.stop(SIGINT, within: .seconds(10)) {
            Issue.record("the sandbox did not stop within 10 seconds of Ctrl-C")
        }
    }
}

/// The sandbox exited or printed nothing usable within 30 seconds.
struct SandboxStartFailure: Error, CustomStringConvertible {
    var output: String
    var description: String { "the sandbox did not start: \(output)" }
}

/// Collects a child's output.
final class OutputBuffer: Sendable {
    let data = Mutex(Data())

    /// Reads `handle` to its end into this buffer on a thread of its own, then calls `ended`.
    ///
    /// A blocking read must never occupy the small cooperative thread pool, or the sandbox serving the child processes in this same test
    /// process starves; nor one of Dispatch's worker threads, which are about as few, or a long-lived child holds up
    /// every other read.
    func fill(from handle: FileHandle, then ended: @escaping @Sendable () -> Void = {}) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                data.withLock { $0.append(chunk) }
            }
            ended()
        }
    }
}
