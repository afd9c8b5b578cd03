import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The parent's handle on a server child (`serve-plain`, `serve-gateway`): its port, the rest of the line it printed,
/// and the pipe whose closing stops it.
struct PlainServerProcess {
    /// The child's process id.
    let pid: pid_t
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    /// What the child printed after its port, such as a gateway's token.
    let rest: String
    private let lifeline: Int32

    /// Starts this executable with `arguments` and waits for the line that begins with its port.
    static func start(_ arguments: [String] = ["serve-plain"]) throws -> PlainServerProcess {
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let input = try makePipe()
        let output = try makePipe()
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(
                executable,
                arguments,
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
        let words = line.split(separator: " ", maxSplits: 1)
        guard let port = words.first.flatMap({ Int($0) }), port > 0 else {
            close(input.write)
            throw BenchError("the plain server did not start (it said “\(line)”)")
        }
        let rest = words.count > 1 ? String(words[1]) : ""
        return PlainServerProcess(pid: pid, port: port, rest: rest, lifeline: input.write)
    }

    /// Starts the plain server, runs `body` with its port, and stops it on every path.
    static func with<T>(_ body: (Int) async throws -> T) async throws -> T {
        try await with(["serve-plain"]) { try await body($0.port) }
    }

    /// Starts this executable with `arguments`, runs `body` with the child, and stops it on every path.
    static func with<T>(_ arguments: [String], _ body: (PlainServerProcess) async throws -> T) async throws -> T {
        let server = try start(arguments)
        do {
            let result = try await body(server)
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
