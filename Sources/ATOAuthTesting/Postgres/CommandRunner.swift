import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a command to its end without blocking a thread.
///
/// The output goes to temporary files, read once the command has ended.
enum CommandRunner {
    struct Result: Sendable {
        var status: Int32
        var standardOutput: String
        var standardError: String

        /// Both outputs, for error messages.
        var output: String { standardOutput + standardError }
    }

    /// Runs `executable` with `arguments`, as the user `asUser` (through `setpriv`) when given.
    static func run(_ executable: URL, _ arguments: [String], asUser: Int? = nil) async throws -> Result {
        let (program, programArguments) =
            if let asUser {
                (
                    "/usr/bin/setpriv",
                    ["--reuid=\(asUser)", "--regid=\(asUser)", "--clear-groups", executable.path] + arguments
                )
            } else {
                (executable.path, arguments)
            }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("atoauth-command-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("stdout")
        let errors = directory.appendingPathComponent("stderr")
        let outputDescriptor = open(output.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errorDescriptor = open(errors.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            close(outputDescriptor)
            close(errorDescriptor)
        }
        guard outputDescriptor >= 0, errorDescriptor >= 0 else {
            throw ThrowawayPostgresError("cannot create the output files of \(program)")
        }
        let pid = try SpawnedProcess.spawn(
            program,
            programArguments,
            input: nil,
            output: outputDescriptor,
            error: errorDescriptor
        )
        let status = await SpawnedProcess.exitStatus(pid)
        return Result(
            status: status,
            standardOutput: String(decoding: try Data(contentsOf: output), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errors), as: UTF8.self)
        )
    }
}
