import ATOAuthTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running `KeystoreStressHelper` child process.
final class StressHelperProcess: Sendable {
    private let process: ChildProcess
    private let errorPipe = Pipe()

    /// Starts the helper with `arguments`.
    init(_ arguments: [String]) throws {
        process = try ChildProcess(Self.executableURL(), arguments, error: .pipe(errorPipe))
    }

    /// Kills the helper with SIGKILL.
    func kill() {
        process.signal(SIGKILL)
    }

    /// Waits for the helper to exit and returns its status; a normal exit with status 0 means success.
    func waitForExit() async -> (reason: ChildProcess.TerminationReason, status: Int32, errors: String) {
        await process.waitUntilExit()
        let errors = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationReason, process.terminationStatus, errors)
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
