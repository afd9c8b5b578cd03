import Foundation
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
    static func start(
        _ arguments: [String],
        environment: [String: String],
        stdin: Data? = nil,
        executable: URL? = nil
    ) throws -> Running {
        let executable = try #require(executable ?? Self.executable, "build the atoauth executable first (swift build)")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        return Running(process: process, output: output, errors: errors)
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

    /// A started process whose pipes are drained in the background, so it never blocks on a full pipe.
    final class Running: Sendable {
        let process: Process
        private let stdoutTask: Task<Data, Never>
        private let stderrTask: Task<Data, Never>

        init(process: Process, output: Pipe, errors: Pipe) {
            self.process = process
            let outputHandle = output.fileHandleForReading
            let errorHandle = errors.fileHandleForReading
            stdoutTask = Task { await Self.readToEnd(outputHandle) }
            stderrTask = Task { await Self.readToEnd(errorHandle) }
        }

        /// Reads a pipe to its end on a Dispatch thread: a blocking read must never occupy the small cooperative
        /// thread pool, or the sandbox serving the child processes in this same test process starves.
        private static func readToEnd(_ handle: FileHandle) async -> Data {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: handle.readDataToEndOfFile()) }
            }
        }

        /// Sends a signal, such as SIGINT for Ctrl-C.
        func signal(_ number: Int32) {
            kill(process.processIdentifier, number)
        }

        /// Waits for the exit (killing the process after `timeout`) and returns what it printed.
        func finish(timeout: Duration = .seconds(60)) async throws -> Result {
            let deadline = ContinuousClock.now + timeout
            while process.isRunning {
                if ContinuousClock.now > deadline {
                    process.terminate()
                    Issue.record("atoauth \(process.arguments ?? []) did not exit within \(timeout)")
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            process.waitUntilExit()
            let bytes = await stdoutTask.value
            let stderr = String(decoding: await stderrTask.value, as: UTF8.self)
            return Result(
                status: process.terminationStatus,
                stdout: String(decoding: bytes, as: UTF8.self),
                stderr: stderr,
                stdoutBytes: bytes
            )
        }

        /// Waits until the standard error so far contains `text`; used to time a Ctrl-C.
        var isRunning: Bool { process.isRunning }
    }
}
