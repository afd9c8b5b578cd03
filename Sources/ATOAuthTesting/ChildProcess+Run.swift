public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ChildProcess {
    /// What a program run to its end left: how it ended and what it wrote.
    public struct Finished: Sendable {
        /// The exit status, or the number of the signal that ended the program.
        public var status: Int32
        /// Whether it exited or a signal ended it.
        public var reason: TerminationReason
        /// What it wrote on standard output.
        public var outputData: Data
        /// What it wrote on standard error.
        public var errorData: Data

        /// Standard output as text.
        public var standardOutput: String { String(decoding: outputData, as: UTF8.self) }
        /// Standard error as text.
        public var standardError: String { String(decoding: errorData, as: UTF8.self) }
        /// Both outputs, for error messages.
        public var output: String { standardOutput + standardError }
    }

    /// Runs `executable` to its end with `input` on its standard input, without blocking a thread, and returns what it
    /// wrote; the streams go through temporary files, so no pipe can fill up.
    public static func run(
        _ executable: URL,
        _ arguments: [String] = [],
        environment: [String: String]? = nil,
        input: Data = Data()
    ) async throws -> Finished {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("atoauth-child-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = ["stdin", "stdout", "stderr"].map { directory.appendingPathComponent($0) }
        try input.write(to: files[0])
        let descriptors = files.enumerated().map { index, file in
            open(file.path, index == 0 ? O_RDONLY | O_CLOEXEC : O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        }
        defer { for descriptor in descriptors where descriptor >= 0 { close(descriptor) } }
        guard descriptors.allSatisfy({ $0 >= 0 }) else {
            throw ChildProcessFailure("cannot open the files of \(executable.path)'s streams (errno \(errno))")
        }
        let child = try ChildProcess(
            executable,
            arguments,
            environment: environment,
            input: .descriptor(descriptors[0]),
            output: .descriptor(descriptors[1]),
            error: .descriptor(descriptors[2])
        )
        await child.waitUntilExit()
        return Finished(
            status: child.terminationStatus,
            reason: child.terminationReason,
            outputData: try Data(contentsOf: files[1]),
            errorData: try Data(contentsOf: files[2])
        )
    }
}
