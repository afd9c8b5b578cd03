import Foundation

/// Runs the server's programs to their ends without blocking a thread.
enum CommandRunner {
    /// Runs `executable` with `arguments`, as the user `asUser` (through `setpriv`) when given.
    static func run(_ executable: URL, _ arguments: [String], asUser: Int? = nil) async throws -> ChildProcess.Finished
    {
        guard let asUser else { return try await ChildProcess.run(executable, arguments) }
        return try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=\(asUser)", "--regid=\(asUser)", "--clear-groups", executable.path] + arguments
        )
    }
}
