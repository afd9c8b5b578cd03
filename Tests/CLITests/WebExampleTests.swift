import ATOAuthTesting
import Foundation
import HTTPTransport
import Keystore
import Synchronization
import Testing

@Suite("The web example signs a browser in as a confidential client")
struct WebExampleTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("chromium_web_signin.py")

    @Test("Chromium signs in on the example and lands signed in; the copy-address page shows its URL and sends nothing")
    func chromiumSignsIn() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
            "install Debian's chromium package (and pip websocket-client); .ci/run does"
        )
        let sandbox = try await SandboxProcess(autoApprove: false)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("atoauth-web-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome: Result<Void, any Error>
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try await signIn(sandbox, directory)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        await sandbox.stop()
        try outcome.get()
    }

    /// Starts the example against the sandbox, checks its client metadata, signs in and out in the browser, and
    /// opens its "copy this address" page there.
    private func signIn(_ sandbox: SandboxProcess, _ directory: URL) async throws {
        let did = try #require(sandbox.accounts["alice.test"])
        let home = directory.appendingPathComponent("home")
        let keyFile = directory.appendingPathComponent("store.key")
        var environment = sandbox.environment
        environment["HOME"] = directory.path
        environment["ATOAUTH_KEY_FILE"] = keyFile.path
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let example = try await ExampleProcess(
            arguments: ["--port", "0", "--allow-http-loopback", "--home", home.path],
            environment: environment
        )
        let outcome: Result<Void, any Error>
        do {
            try await checkClientMetadata(origin: example.origin)
            let copyPage = CopyPageVisit(issuer: sandbox.issuer)
            try await copyPage.checkAnswer(origin: example.origin)
            let result = try await CLIProcess.run(
                ["python3", Self.script.path, example.origin, "alice.test", copyPage.target],
                environment: ["PATH": environment["PATH"] ?? "/usr/bin:/bin", "HOME": directory.path],
                executable: URL(fileURLWithPath: "/usr/bin/env"),
                timeout: .seconds(120)
            )
            let log = result.stdout
            let diagnostics = "browser:\n\(log)\(result.stderr)\nexample:\n\(example.stderrSoFar)"
            #expect(result.status == 0, "\(diagnostics)")
            #expect(log.contains("consent page: Authorize"), "\(diagnostics)")
            let landed = log.split(separator: "\n").first { $0.hasPrefix("final page: ") } ?? ""
            #expect(landed.contains("Signed in as alice.test"), "\(diagnostics)")
            #expect(landed.contains(did), "the page shows the DID getSession answered: \(diagnostics)")
            let signedOut = log.split(separator: "\n").first { $0.hasPrefix("after sign-out: ") } ?? ""
            #expect(signedOut.contains("Sign in with Bluesky"), "\(diagnostics)")
            copyPage.checkBrowser(log: log, diagnostics: diagnostics)
            #expect(!example.stderrSoFar.contains(copyPage.code), "the example logged the code")

            // Signing out removed the account's session; the client's signing key stays.
            let names = try EncryptedFileKeystore(directory: home, keySource: .keyFile(keyFile)).names()
            #expect(!names.contains("session/\(did)"), "\(names)")
            #expect(names.contains { $0.hasPrefix("client-key/") }, "\(names)")
            let counters = try await sandbox.counters()
            #expect(counters.authorizationCodeGrantsSucceeded == 1)
            #expect(counters.xrpcRequestsReceived >= 1)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        await example.stop()
        try outcome.get()
    }

    /// The document at the `client_id` URL is a confidential web client's, publishing one public key.
    private func checkClientMetadata(origin: String) async throws {
        let url = try #require(URL(string: origin + "/client-metadata.json"))
        let response = try await AsyncHTTPClientTransport.withTransport { try await $0.send(HTTPRequest(url: url)) }
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
        let document = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(document["client_id"] as? String == url.absoluteString)
        #expect(document["application_type"] as? String == "web")
        #expect(document["client_uri"] as? String == origin)
        // The callback, then the page an operator copies the address from, as `atoauth client metadata
        // --redirect-uri … --copy-address-uri …` lists them.
        #expect(document["redirect_uris"] as? [String] == [origin + "/callback", origin + "/copy-address"])
        #expect(document["grant_types"] as? [String] == ["authorization_code", "refresh_token"])
        #expect(document["response_types"] as? [String] == ["code"])
        #expect(document["scope"] as? String == "atproto transition:generic")
        #expect(document["token_endpoint_auth_method"] as? String == "private_key_jwt")
        #expect(document["token_endpoint_auth_signing_alg"] as? String == "ES256")
        #expect(document["dpop_bound_access_tokens"] as? Bool == true)
        let jwks = try #require(document["jwks"] as? [String: Any])
        let keys = try #require(jwks["keys"] as? [[String: Any]])
        #expect(keys.count == 1)
        let key = try #require(keys.first)
        #expect(key["kty"] as? String == "EC")
        #expect(key["crv"] as? String == "P-256")
        #expect((key["kid"] as? String)?.isEmpty == false)
        #expect(key["x"] is String && key["y"] is String)
        #expect(key["d"] == nil, "the document publishes the private key")
    }
}

/// A visit to the example's "copy this address" page, as an operator's browser ends there: its address carries a code,
/// a `state` and an `iss` the page must show whole and never send anywhere, nor spend.
struct CopyPageVisit {
    let code = "cod-" + UUID().uuidString
    let state = "st-" + UUID().uuidString
    let issuer: String

    /// The page's path and query.
    var target: String {
        let unreserved = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let iss = issuer.addingPercentEncoding(withAllowedCharacters: unreserved) ?? issuer
        return "/copy-address?code=\(code)&state=\(state)&iss=\(iss)"
    }

    /// The answer itself: a static HTML page, never cached, sending no `Referer`, and allowed no request.
    func checkAnswer(origin: String) async throws {
        let url = try #require(URL(string: origin + target))
        let response = try await AsyncHTTPClientTransport.withTransport { try await $0.send(HTTPRequest(url: url)) }
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"]?.hasPrefix("text/html") == true)
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.headers["Referrer-Policy"] == "no-referrer")
        #expect(response.headers["Content-Security-Policy"]?.hasPrefix("default-src 'none';") == true)
        #expect(response.headers["Set-Cookie"] == nil)
        let html = String(decoding: response.body, as: UTF8.self)
        #expect(html.contains("id=\"address\"") && html.contains("id=\"copy\""))
        #expect(!html.contains(code) && !html.contains(state), "the page is static: it does not echo the query")
    }

    /// What the browser script reported: the field shows the whole address, read-only, and the one request the
    /// browser sent, and the example received, is the GET of the page, even after the copy button was pressed.
    func checkBrowser(log: String, diagnostics: String) {
        func reported(_ label: String) -> String {
            let line = log.split(separator: "\n").first { $0.hasPrefix("copy page \(label): ") } ?? ""
            return String(line.dropFirst("copy page \(label): ".count))
        }
        func list(_ label: String) -> [String]? {
            try? JSONDecoder().decode([String].self, from: Data(reported(label).utf8))
        }
        let opened = reported("opened")
        #expect(opened.hasPrefix("http://127.0.0.1:") && opened.hasSuffix(target), "\(diagnostics)")
        #expect(reported("field") == opened, "\(diagnostics)")
        #expect(reported("read-only") == "true", "\(diagnostics)")
        #expect(list("server received") == ["GET \(target)"], "\(diagnostics)")
        #expect(list("browser sent") == ["GET \(opened)"], "\(diagnostics)")
    }
}

/// `atoauth-web-example` running as its own process, its output drained in the background; started on any free
/// port, whose origin it prints once it listens.
final class ExampleProcess: Sendable {
    /// The example's executable, built next to `atoauth`.
    static let executable: URL? = CLIProcess.executable
        .map { $0.deletingLastPathComponent().appendingPathComponent("atoauth-web-example") }
        .flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil }

    let process: ChildProcess
    /// `http://127.0.0.1:<port>`, as the example printed it.
    let origin: String
    private let stderr: OutputBuffer

    /// Starts the example and waits (a minute at most) until it prints `listening on <origin>`.
    init(arguments: [String], environment: [String: String]) async throws {
        let executable = try #require(
            ExampleProcess.executable,
            "build the atoauth-web-example executable first (swift build)"
        )
        let (process, stdout, stderr, _) = try DrainedPipes.start(
            executable,
            arguments: arguments,
            environment: environment
        )
        self.origin = try await ExampleProcess.printedOrigin(of: process, stdout: stdout, stderr: stderr)
        self.process = process
        self.stderr = stderr
    }

    /// The origin from the `listening on <origin>` line, once printed; the process is ended when it exits or prints
    /// none within a minute.
    private static func printedOrigin(
        of process: ChildProcess,
        stdout: OutputBuffer,
        stderr: OutputBuffer
    ) async throws -> String {
        try await process.awaitStart(
            "the example's “listening on” line",
            failure: ExampleStartFailure(output: stdout.text + stderr.text)
        ) { stdout.line(after: "listening on ") }
    }

    /// What the example has written on standard error so far: its log.
    var stderrSoFar: String { String(decoding: stderr.data.withLock { $0 }, as: UTF8.self) }

    /// Stops the example with SIGTERM, as a service manager would, and with SIGKILL after ten seconds.
    func stop() async {
        guard await process.stop(SIGTERM, within: .seconds(10)) else {
            Issue.record("the example did not stop within 10 seconds of SIGTERM: \(stderrSoFar)")
            return
        }
        // A graceful stop returns from the server and exits 0: a crash on the way out fails the test too.
        if process.terminationReason != .exit || process.terminationStatus != 0 {
            let how = process.terminationReason == .exit ? "status" : "signal"
            Issue.record("the example ended by \(how) \(process.terminationStatus) after SIGTERM: \(stderrSoFar)")
        }
    }

}

/// The example exited or printed no address within a minute.
struct ExampleStartFailure: Error, CustomStringConvertible {
    var output: String
    var description: String { "the example did not start: \(output)" }
}
