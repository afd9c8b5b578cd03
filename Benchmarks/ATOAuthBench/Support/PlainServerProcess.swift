import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The parent's handle on a `serve-plain` child: its port, and the pipe whose closing stops it.
struct PlainServerProcess {
    /// The child's process id.
    let pid: pid_t
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    private let lifeline: Int32

    /// Starts this executable as `serve-plain` and waits for its port.
    static func start() throws -> PlainServerProcess {
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let input = try makePipe()
        let output = try makePipe()
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(
                executable,
                ["serve-plain"],
                environment: ProcessInfo.processInfo.environment,
                streams: ChildProcess.Streams(input: input.read, output: output.write, error: nil)
            )
        } catch {
            for descriptor in [input.read, input.write, output.read, output.write] { close(descriptor) }
            throw error
        }
        close(input.read)
        close(output.write)
        defer { close(output.read) }
        let line = readLine(output.read)
        guard let port = Int(line), port > 0 else {
            close(input.write)
            throw BenchError("the plain server did not start (it said “\(line)”)")
        }
        return PlainServerProcess(pid: pid, port: port, lifeline: input.write)
    }

    /// Starts the server, runs `body` with its port, and stops it on every path.
    static func with<T>(_ body: (Int) async throws -> T) async throws -> T {
        let server = try start()
        do {
            let result = try await body(server.port)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Closes the child's standard input and waits until it exits.
    func stop() async {
        close(lifeline)
        _ = await ChildProcess.wait(for: pid)
    }

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw BenchError("cannot create a pipe") }
        // The child gets its ends through dup2; no other child should inherit them.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    private static func readLine(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
