import ATOAuthTesting
import Foundation
import Synchronization
import Testing

/// A reader that goes away (`atoauth demo | head -2`) ends the command quietly with status 141, as coreutils and `gh`
/// do, on stdout and stderr, in text, JSON and `--raw`.
@Suite("a closed pipe")
struct ClosedPipeTests {
    @Test("demo, as text after its first line or as JSON at once, exits 141 without a word")
    func demo() async throws {
        try await ScratchHome.with { scratch in
            let text = try await ClosedPipeRun.run(["demo"], environment: scratch.environment, closing: .afterFirstLine)
            text.expectQuietClosedPipe()
            let json = try await ClosedPipeRun.run(
                ["demo", "--json"],
                environment: scratch.environment,
                closing: .atOnce
            )
            json.expectQuietClosedPipe()
        }
    }

    @Test("xrpc --paginate after its first line, and --raw, exit 141 without a word")
    func xrpc() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let did = try #require(world.did("alice.test"))
            // Five pages of 64 KiB: more than the reader takes with its first line plus what the pipe holds, so the
            // command is still writing when the pipe closes, however late the reader gets to close it.
            let text = String(repeating: "x", count: 64 << 10)
            for index in 1...5 {
                let record =
                    #"{"repo":"\#(did)","collection":"app.bsky.feed.post","rkey":"post\#(index)","#
                    + #""record":{"text":"\#(text) \#(index)"}}"#
                #expect(try await world.atoauth("xrpc", "com.atproto.repo.createRecord", "--input", record).status == 0)
            }
            let pages = try await ClosedPipeRun.run(
                [
                    "xrpc", "com.atproto.repo.listRecords", "repo=\(did)", "collection=app.bsky.feed.post", "limit=1",
                    "--paginate",
                ],
                environment: world.environment,
                closing: .afterFirstLine
            )
            pages.expectQuietClosedPipe()
            let raw = try await ClosedPipeRun.run(
                ["xrpc", "com.atproto.server.getSession", "--raw"],
                environment: world.environment,
                closing: .atOnce
            )
            raw.expectQuietClosedPipe()
        }
    }

    @Test("an error message to a closed stderr exits 141, in text and with --json")
    func standardError() async throws {
        try await ScratchHome.with { scratch in
            for json in [false, true] {
                let result = try await ClosedPipeRun.run(
                    ["accounts", "switch", "nobody.test"] + (json ? ["--json"] : []),
                    environment: scratch.environment,
                    closing: .atOnce,
                    stream: .error
                )
                result.expectQuietClosedPipe()
            }
        }
    }
}

/// One run of `atoauth` with the read end of its stdout or stderr closed by the test, the other stream drained.
private struct ClosedPipeRun {
    enum Closing {
        /// Before the process writes anything: `atoauth … | true`.
        case atOnce
        /// Once a first line arrived: `atoauth … | head -1`.
        case afterFirstLine
    }

    enum Stream {
        case output
        case error
    }

    var reason: ChildProcess.TerminationReason
    var status: Int32
    /// What the other stream received.
    var other: String

    /// Starts `atoauth arguments…`, closes the read end of `stream` as `closing` says, and waits (at most a minute)
    /// for the exit; the process is killed on every path that leaves it running.
    static func run(
        _ arguments: [String],
        environment: [String: String],
        closing: Closing,
        stream: Stream = .output
    ) async throws -> ClosedPipeRun {
        let executable = try #require(CLIProcess.executable, "build the atoauth executable first (swift build)")
        let closed = Pipe()
        let drained = Pipe()
        let reader = closed.fileHandleForReading
        if closing == .atOnce { try reader.close() }
        let process = try ChildProcess(
            executable,
            arguments,
            environment: environment,
            output: .pipe(stream == .output ? closed : drained),
            error: .pipe(stream == .output ? drained : closed)
        )
        let other = OutputBuffer()
        let otherEnded = Task {
            await withCheckedContinuation { continuation in
                other.fill(from: drained.fileHandleForReading) { continuation.resume() }
            }
        }
        if closing == .afterFirstLine {
            // A blocking read on a thread of its own, ending at the first line feed (or at the exit); the wait for the
            // exit below keeps the deadline.
            Thread.detachNewThread {
                var seen = Data()
                while !seen.contains(UInt8(ascii: "\n")) {
                    let chunk = reader.availableData
                    if chunk.isEmpty { break }
                    seen.append(chunk)
                }
                try? reader.close()
            }
        }
        try await CLIProcess.waitForExit(process, timeout: .seconds(60))
        await otherEnded.value
        return ClosedPipeRun(
            reason: process.terminationReason,
            status: process.terminationStatus,
            other: String(decoding: other.data.withLock { $0 }, as: UTF8.self)
        )
    }

    /// Exit status 141 by `exit`, not a trap, and no fatal error on the stream still read.
    func expectQuietClosedPipe(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reason == .exit, "ended by signal \(status): \(other)", sourceLocation: sourceLocation)
        #expect(status == 141, "\(other)", sourceLocation: sourceLocation)
        #expect(!other.contains("Fatal error"), "\(other)", sourceLocation: sourceLocation)
    }
}
