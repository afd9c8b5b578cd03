import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running `KeystoreStressHelper` child process.
final class StressHelperProcess: Sendable {
    private let process: Process
    private let exits: AsyncStream<Process.TerminationReason>
    private let errorPipe = Pipe()

    /// Starts the helper with `arguments`.
    init(_ arguments: [String]) throws {
        let (exits, continuation) = AsyncStream.makeStream(of: Process.TerminationReason.self)
        let process = Process()
        process.executableURL = try Self.executableURL()
        process.arguments = arguments
        process.standardError = errorPipe
        process.terminationHandler = { finished in
            continuation.yield(finished.terminationReason)
            continuation.finish()
        }
        self.process = process
        self.exits = exits
        try process.run()
    }

    /// Kills the helper with SIGKILL.
    func kill() {
        sendKill(process.processIdentifier)
    }

    /// Waits for the helper to exit and returns its status; a normal exit with status 0 means success.
    func waitForExit() async -> (reason: Process.TerminationReason, status: Int32, errors: String) {
        var reason = Process.TerminationReason.exit
        for await finished in exits {
            reason = finished
        }
        let errors = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (reason, process.terminationStatus, errors)
    }

    /// Finds the helper executable beside the test bundle, or in the package's debug build folder.
    static func executableURL() throws -> URL {
        let name = "KeystoreStressHelper"
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            testBinary,
            packageRoot.appending(path: ".build/debug"),
        ]
        for directory in candidates {
            let url = directory.appending(path: name)
            if FileManager.default.isExecutableFile(atPath: url.path) {
                return url
            }
        }
        Issue.record("\(name) not found in \(candidates.map(\.path))")
        throw CocoaError(.fileNoSuchFile)
    }
}

/// Sends SIGKILL to `pid`; a file-scope function so the name reaches libc's `kill`.
private func sendKill(_ pid: Int32) {
    _ = kill(pid, SIGKILL)
}
