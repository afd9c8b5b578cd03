import ATOAuthTesting
import Foundation
import Synchronization
import Testing

/// `atoauth gateway` running as its own process in a ``CLIWorld``, started on a free loopback port (or a Unix
/// socket), its output drained in the background.
final class GatewayProcess: Sendable {
    let process: ChildProcess
    /// `http://127.0.0.1:<port>`, or `unix:<path>`, as the gateway printed it.
    let address: String
    /// The file holding the gateway's access token.
    let tokenFile: URL
    private let stdout: OutputBuffer
    private let stderr: OutputBuffer
    private let pipes: DrainedPipes

    /// Starts `atoauth gateway --token-file … arguments…` (with `--listen 127.0.0.1:0` unless `arguments` choose)
    /// and waits (a minute at most) for its `listening on` line (or, with `--print-env`, its
    /// `ATOAUTH_GATEWAY_URL=` line).
    ///
    /// - Parameters:
    ///   - world: the world whose home and PDS it serves.
    ///   - arguments: more arguments for `atoauth gateway`.
    ///   - extra: more environment variables.
    ///   - tokenFile: the token file; a new one in the world's directory by default.
    ///   - openFiles: when given, the gateway runs with this limit on open files, soft and hard (`ulimit -n` in a
    ///     shell that then becomes the gateway, so ``process`` is the gateway's own).
    /// - Throws: ``GatewayStartFailure`` when it exits or prints no address first.
    init(
        in world: CLIWorld,
        _ arguments: [String] = [],
        environment extra: [String: String] = [:],
        tokenFile: URL? = nil,
        openFiles: Int? = nil
    ) async throws {
        let atoauth = try #require(CLIProcess.executable, "build the atoauth executable first (swift build)")
        let tokenFile = tokenFile ?? world.directory.appendingPathComponent("gateway-token-\(UUID().uuidString)")
        self.tokenFile = tokenFile
        let listen =
            arguments.contains("--socket") || arguments.contains("--listen") ? [] : ["--listen", "127.0.0.1:0"]
        var executable = atoauth
        var all = ["gateway", "--token-file", tokenFile.path] + listen + arguments
        if let openFiles {
            executable = URL(fileURLWithPath: "/bin/sh")
            all = ["-c", "ulimit -n \(openFiles) && exec \"$0\" \"$@\"", atoauth.path] + all
        }
        let (process, stdout, stderr, pipes) = try DrainedPipes.start(
            executable,
            arguments: all,
            environment: world.environment.merging(extra) { $1 }
        )
        (self.process, self.stdout, self.stderr, self.pipes) = (process, stdout, stderr, pipes)
        world.children.add(process)
        address = try await process.awaitStart(
            "the gateway's “listening on” line",
            failure: GatewayStartFailure(output: stdout.text + stderr.text)
        ) {
            stdout.line(after: "listening on ") ?? stdout.line(after: "ATOAUTH_GATEWAY_URL=")
                ?? Self.listening(inJSON: stdout.text)
        }
    }

    /// The address in a `--json` gateway's `{"listening": …}` line, when it has printed it.
    private static func listening(inJSON text: String) -> String? {
        let line = text.split(separator: "\n").first { $0.hasPrefix("{") }
        let object = line.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return object?["listening"] as? String
    }

    /// The token the gateway wrote, without its line end.
    func token() throws -> String {
        try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .newlines)
    }

    /// The port the gateway listens on, for a TCP gateway.
    var port: Int? { address.split(separator: ":").last.flatMap { Int($0) } }

    /// What the gateway wrote on standard output so far.
    var printed: String { stdout.text }

    /// What the gateway wrote on standard error so far.
    var errors: String { stderr.text }

    /// Everything the gateway wrote on standard output and standard error so far.
    var output: String {
        [stdout, stderr].map { String(decoding: $0.data.withLock { $0 }, as: UTF8.self) }.joined(separator: "\n")
    }

    /// The gateway's peak resident memory so far, in bytes (`VmHWM`).
    func peakMemory() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    /// Sends `signal` (SIGTERM by default) and waits up to `timeout` for the exit; returns the exit status.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM, timeout: Duration = .seconds(20)) async -> Int32 {
        if await !process.stop(signal, within: timeout) {
            Issue.record("the gateway did not stop within \(timeout) of signal \(signal): \(output)")
        }
        await Waiting.atMost(.seconds(5)) { pipes.allDrained }
        return process.terminationStatus
    }

    /// Waits (30 seconds at most) until the gateway's metrics count at least `count` XRPC requests in flight: a
    /// request it has begun to receive, such as an upload under way.
    func waitUntilInFlight(_ count: Int = 1) async throws {
        let token = try token()
        try await Waiting.until("the gateway to have \(count) requests in flight: \(output)", timeout: .seconds(30)) {
            let metrics = CurlAnswer(try await curl("/_gateway/metrics", token: token))
            let line = metrics.body.split(separator: "\n").first { $0.hasPrefix("atoauth_gateway_in_flight ") }
            return line?.split(separator: " ").last.flatMap { Double($0) }.map { $0 >= Double(count) } ?? false
        }
    }

    /// Runs curl with `arguments` against this gateway (its address prepended to `path`), returning its result.
    func curl(_ path: String, _ arguments: [String] = [], token: String? = nil) async throws -> CLIProcess.Result {
        var all = ["-sS", "-o", "-", "-w", "\n%{http_code}"] + arguments
        if let token { all += ["-H", "Authorization: Bearer \(token)"] }
        if address.hasPrefix("unix:") {
            all += ["--unix-socket", String(address.dropFirst("unix:".count)), "http://localhost\(path)"]
        } else {
            all.append(address + path)
        }
        return try await CLIProcess.run(
            all,
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
            executable: URL(fileURLWithPath: "/usr/bin/curl")
        )
    }
}

/// curl's answer split into the body and the status code `-w` appended.
struct CurlAnswer {
    var status: Int
    var body: String

    init(_ result: CLIProcess.Result) {
        let text = result.stdout
        let split = text.lastIndex(of: "\n") ?? text.endIndex
        body = String(text[..<split])
        status = Int(text[split...].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// The XRPC error name of a JSON error answer.
    var error: String? {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["error"] as? String
    }
}

/// The gateway exited or printed no address within a minute.
struct GatewayStartFailure: Error, CustomStringConvertible {
    var output: String
    var description: String { "the gateway did not start: \(output)" }
}
