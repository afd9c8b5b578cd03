import Foundation
import Testing

/// A private, empty atoauth home for commands that never reach a server: usage errors and help.
struct ScratchHome {
    let directory: URL

    var home: URL { directory.appendingPathComponent("home") }

    /// HOME, the atoauth home and key file inside the scratch directory, and PATH; nothing else.
    var environment: [String: String] {
        [
            "HOME": directory.path, "ATOAUTH_HOME": home.path,
            "ATOAUTH_KEY_FILE": directory.appendingPathComponent("config/store.key").path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
    }

    /// Makes a scratch directory, runs `body`, and removes it.
    static func with<T>(_ body: (ScratchHome) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("atoauth-scratch-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer {
            // A folder that cannot be removed is something a command or a child left behind: say which test.
            do {
                try FileManager.default.removeItem(at: directory)
            } catch {
                Issue.record("\(directory.lastPathComponent) could not be removed: \(error)")
            }
        }
        return try await body(ScratchHome(directory: directory))
    }

    /// Runs `atoauth arguments…` here, with `extraEnvironment` added.
    func atoauth(_ arguments: [String], extraEnvironment: [String: String] = [:]) async throws -> CLIProcess.Result {
        try await CLIProcess.run(arguments, environment: environment.merging(extraEnvironment) { $1 })
    }
}
