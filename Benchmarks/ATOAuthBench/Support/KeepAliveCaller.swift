import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The leanest HTTP/1.1 client a program can be, as load generators such as `wrk` are.
///
/// One kept-alive TCP connection to 127.0.0.1, the same request bytes written each time, the answer read by its `Content-Length`, on a
/// thread of its own with blocking sockets. What it costs per call is about what any caller of the gateway must pay
/// at the least, so a figure made with it shows the gateway's own cost.
final class KeepAliveCaller {
    private let socket: Int32
    private let request: [UInt8]
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Connects to `127.0.0.1:port`; every call sends `GET path` with `headers`.
    init(port: Int, path: String, headers: [(String, String)]) throws {
        var text = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        request = Array((text + "\r\n").utf8)
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw BenchError("cannot open a socket") }
        var one: Int32 = 1
        _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        // A server that stops answering ends the benchmark with an error, not a hang.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw BenchError("cannot connect to 127.0.0.1:\(port)")
        }
    }

    deinit { close(socket) }

    /// Sends the request and reads the whole answer.
    ///
    /// - Throws: ``BenchError`` when the connection fails, the answer cannot be read, or its status is not 200.
    func call() throws {
        var written = 0
        while written < request.count {
            let count = request.withUnsafeBytes { bytes in
                bytes.baseAddress.map { send(socket, $0 + written, bytes.count - written, 0) } ?? -1
            }
            guard count > 0 else { throw BenchError("the connection closed while sending") }
            written += count
        }
        var received = 0
        var headEnd: Int?
        while headEnd == nil {
            received += try receive(at: received)
            headEnd = Self.endOfHead(buffer, received)
        }
        guard let headEnd, let head = Self.head(buffer, headEnd) else { throw BenchError("an unreadable answer") }
        while received < headEnd + head.length { received += try receive(at: received) }
        guard head.status == 200 else { throw BenchError("the gateway answered \(head.status)") }
    }

    private func receive(at offset: Int) throws -> Int {
        guard offset < buffer.count else { throw BenchError("an answer over 64 KiB") }
        let count = buffer.withUnsafeMutableBytes { bytes in
            bytes.baseAddress.map { recv(socket, $0 + offset, bytes.count - offset, 0) } ?? -1
        }
        guard count > 0 else { throw BenchError("the connection closed or timed out while receiving") }
        return count
    }

    /// Where the body starts: just past the first `\r\n\r\n`.
    private static func endOfHead(_ bytes: [UInt8], _ count: Int) -> Int? {
        guard count >= 4 else { return nil }
        for index in 3..<count
        where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    /// The status and `Content-Length` of the head that ends at `end`.
    private static func head(_ bytes: [UInt8], _ end: Int) -> (status: Int, length: Int)? {
        let text = String(decoding: bytes[..<end], as: UTF8.self)
        let lines = text.split(separator: "\r\n")
        guard let statusLine = lines.first, let code = statusLine.split(separator: " ").dropFirst().first,
            let status = Int(code)
        else { return nil }
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces)).map { (status, $0) }
            }
        }
        return nil
    }

    /// Runs `calls` calls spread over `callers` callers, each on its own thread and connection; returns the wall time
    /// in seconds from the first call to the last answer.
    static func run(calls: Int, callers: Int, make: () throws -> KeepAliveCaller) async throws -> Double {
        let connected = try (0..<callers).map { _ in try make() }
        let started = Clocks.wall()
        _ = try await onThreads(connected.count) { index in
            for _ in 0..<Workload.share(of: calls, among: callers, for: index) { try connected[index].call() }
        }
        return (Clocks.wall() - started).seconds
    }

    /// Runs `body(index)` for each index on its own thread and waits for all; returns what each returned, in order.
    ///
    /// - Throws: the first error a thread threw.
    static func onThreads<Value: Sendable>(
        _ count: Int,
        _ body: @escaping @Sendable (Int) throws -> Value
    ) async throws -> [Value] {
        let results = Mutex<[Int: Result<Value, any Error>]>([:])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let group = DispatchGroup()
            for index in 0..<count {
                group.enter()
                Thread.detachNewThread {
                    let result = Result { try body(index) }
                    results.withLock { $0[index] = result }
                    group.leave()
                }
            }
            group.notify(queue: .global()) { continuation.resume() }
        }
        let all = results.withLock { $0 }
        return try (0..<count).map { index in try all[index]?.get() ?? { throw BenchError("thread \(index) ended") }() }
    }
}

extension KeepAliveCaller: @unchecked Sendable {}
