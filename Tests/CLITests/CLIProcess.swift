import ATOAuthTesting
import Foundation
import Synchronization
import Testing

/// Runs the built `atoauth` executable as a real child process and collects its output.
struct CLIProcess {
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The bytes written to stdout, exactly.
        var stdoutBytes = Data()
    }

    static let executable: URL? = {
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            packageRoot.appendingPathComponent(".build/debug"),
        ]
        return candidates.map { $0.appendingPathComponent("atoauth") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Starts `atoauth arguments…` (or another `executable`) with exactly `environment`; the caller reads and waits.
    ///
    /// Standard input gets `stdin` and is then closed, unless `keepStdinOpen` is set: then the test writes more with
    /// ``Running/write(_:)`` and ends it with ``Running/closeInput()``.
    static func start(
        _ arguments: [String],
        environment: [String: String],
        stdin: Data? = nil,
        executable: URL? = nil,
        keepStdinOpen: Bool = false
    ) throws -> Running {
        let executable = try #require(executable ?? Self.executable, "build the atoauth executable first (swift build)")
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        let process = try ChildProcess(
            executable,
            arguments,
            environment: environment,
            input: .pipe(input),
            output: .pipe(output),
            error: .pipe(errors)
        )
        if let stdin { input.fileHandleForWriting.write(stdin) }
        if !keepStdinOpen { try? input.fileHandleForWriting.close() }
        return Running(
            process: process,
            output: output.fileHandleForReading,
            errors: errors.fileHandleForReading,
            input: keepStdinOpen ? input.fileHandleForWriting : nil
        )
    }

    /// Runs to completion (at most `timeout`) and returns status and output.
    static func run(
        _ arguments: [String],
        environment: [String: String],
        stdin: Data? = nil,
        executable: URL? = nil,
        timeout: Duration = .seconds(60)
    ) async throws -> Result {
        try await start(arguments, environment: environment, stdin: stdin, executable: executable)
            .finish(timeout: timeout)
    }

    /// Waits for `process` to exit, polling so no thread blocks; after `timeout` it is killed and an issue recorded.
    static func waitForExit(_ process: ChildProcess, timeout: Duration) async throws {
        if await !process.waitForExit(killingAfter: timeout) {
            Issue.record("\(process.commandLine) did not exit within \(timeout)")
        }
    }

    /// A started process whose output is drained in the background, so it never blocks on a full pipe; the test can
    /// look at its standard error while it runs and write to its standard input.
    final class Running: Sendable {
        let process: ChildProcess
        private let input: FileHandle?
        private let stdout = OutputBuffer()
        private let stderr = OutputBuffer()
        private let stdoutTask: Task<Void, Never>
        private let stderrTask: Task<Void, Never>

        init(process: ChildProcess, output: FileHandle, errors: FileHandle, input: FileHandle? = nil) {
            self.process = process
            self.input = input
            stdoutTask = Task { [stdout] in await Self.drain(output, into: stdout) }
            stderrTask = Task { [stderr] in await Self.drain(errors, into: stderr) }
        }

        /// Reads a pipe to its end (``OutputBuffer/fill(from:then:)``); returns once it has ended.
        private static func drain(_ handle: FileHandle, into buffer: OutputBuffer) async {
            await withCheckedContinuation { continuation in
                buffer.fill(from: handle) { continuation.resume() }
            }
        }

        /// Sends a signal, such as SIGINT for Ctrl-C.
        func signal(_ number: Int32) {
            process.signal(number)
        }

        /// Writes to the process's standard input (started with `keepStdinOpen`).
        func write(_ text: String) {
            input?.write(Data(text.utf8))
        }

        /// Closes the process's standard input: it reads end of file.
        func closeInput() {
            try? input?.close()
        }

        /// What the process has written on standard error so far.
        var stderrSoFar: String { String(decoding: stderr.data.withLock { $0 }, as: UTF8.self) }

        /// Waits until standard error contains `text` `count` times (the process still running), and returns it.
        @discardableResult
        func waitForStderr(
            containing text: String,
            count: Int = 1,
            timeout: Duration = .seconds(30)
        ) async throws -> String {
            try await Waiting.value("atoauth to print “\(text)” \(count) times: \(stderrSoFar)", timeout: timeout) {
                let sofar = stderrSoFar
                if sofar.components(separatedBy: text).count > count { return sofar }
                try #require(process.isRunning, "atoauth ended before it printed “\(text)”: \(sofar)")
                return nil
            }
        }

        /// Waits for the exit (killing the process after `timeout`) and returns what it printed.
        func finish(timeout: Duration = .seconds(60)) async throws -> Result {
            try await CLIProcess.waitForExit(process, timeout: timeout)
            closeInput()
            await stdoutTask.value
            await stderrTask.value
            let bytes = stdout.data.withLock { $0 }
            return Result(
                status: process.terminationStatus,
                stdout: String(decoding: bytes, as: UTF8.self),
                stderr: stderrSoFar,
                stdoutBytes: bytes
            )
        }

        /// Whether the process still runs.
        var isRunning: Bool { process.isRunning }
    }
}
