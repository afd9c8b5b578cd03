import ATOAuthTesting
import Foundation
import Synchronization

/// Reads a child's pipes to their ends (``OutputBuffer/fill(from:then:)``), and tells when every pipe it was given has
/// ended.
final class DrainedPipes: Sendable {
    private let counts = Mutex((started: 0, ended: 0))

    /// Reads `handle` to its end into `buffer`, in the background.
    func drain(_ handle: FileHandle, into buffer: OutputBuffer) {
        counts.withLock { $0.started += 1 }
        buffer.fill(from: handle) { [self] in counts.withLock { $0.ended += 1 } }
    }

    /// Starts `executable` with standard input empty, its standard output and error drained into buffers.
    static func start(
        _ executable: URL,
        arguments: [String],
        environment: [String: String]
    ) throws -> (ChildProcess, stdout: OutputBuffer, stderr: OutputBuffer, pipes: DrainedPipes) {
        let output = Pipe()
        let errors = Pipe()
        let process = try ChildProcess(
            executable,
            arguments,
            environment: environment,
            output: .pipe(output),
            error: .pipe(errors)
        )
        let stdout = OutputBuffer()
        let stderr = OutputBuffer()
        let pipes = DrainedPipes()
        pipes.drain(output.fileHandleForReading, into: stdout)
        pipes.drain(errors.fileHandleForReading, into: stderr)
        return (process, stdout, stderr, pipes)
    }

    /// Whether every pipe given to ``drain(_:into:)`` has ended.
    var allDrained: Bool { counts.withLock { $0.started == $0.ended } }
}
