import ATOAuthTesting
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The fake PostgreSQL server of `fake_postgres.py` in a process of its own: it says, per connection, whether the
/// client sent it a password.
final class FakePostgres: @unchecked Sendable {
    let port: Int
    private let process: ChildProcess
    private let output: FileHandle

    /// Starts `fake_postgres.py` with `arguments` and reads its port.
    init(_ arguments: [String]) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("fake_postgres.py")
        let pipe = Pipe()
        process = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script.path] + arguments,
            output: .pipe(pipe),
            error: .descriptor(STDERR_FILENO)  // A traceback reaches the test's log, as it would from a terminal.
        )
        output = pipe.fileHandleForReading
        guard let line = Self.readLine(output), let port = Int(line) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    /// The fake's report on the next connection that ended: `password received` or `no password`.
    func nextReport() async -> String? {
        let output = output
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Self.readLine(output)) }
        }
    }

    /// Stops the fake.
    func stop() {
        process.signal(SIGKILL)
    }

    private static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(handle.fileDescriptor, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
