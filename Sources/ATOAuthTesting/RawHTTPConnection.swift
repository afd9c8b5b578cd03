import Foundation

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One TCP connection to 127.0.0.1 that sends exactly the bytes a test writes, such as a forged `Host` header.
///
/// Blocking calls run on a dispatch queue, never on the test's cooperative threads; reads give up after 10 seconds.
package final class RawHTTPConnection: Sendable {
    /// The socket call that failed.
    package struct Failed: Error {
        /// `socket` or `connect`.
        package let step: String
    }

    private let descriptor: Int32

    /// Connects to `127.0.0.1:port`.
    package init(port: Int) throws {
        let descriptor = makeStreamSocket()
        guard descriptor >= 0 else { throw Failed(step: "socket") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        // Writing after the server closed must fail, not raise SIGPIPE (Linux passes MSG_NOSIGNAL to each send).
        var noSignal: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = loopbackAddress(port: UInt16(clamping: port))
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(descriptor)
            throw Failed(step: "connect")
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Sends `GET target` with this `Host` header (none when `nil`).
    package func sendGet(_ target: String, host: String?) {
        sendRequest("GET", target, host: host)
    }

    /// Sends one HTTP/1.1 request exactly as given: this `Host` header (none when `nil`), then `fields` (each
    /// `Name: value`), and `body` with its `Content-Length` when there is one.
    package func sendRequest(
        _ method: String,
        _ target: String,
        host: String?,
        fields: [String] = [],
        body: String = ""
    ) {
        var head = ["\(method) \(target) HTTP/1.1"] + (host.map { ["Host: \($0)"] } ?? []) + fields
        if !body.isEmpty { head.append("Content-Length: \(body.utf8.count)") }
        sendRaw(head.map { $0 + "\r\n" }.joined() + "\r\n" + body)
    }

    /// Sends exactly these bytes, such as part of a request head; `false` when the connection is closed or broken.
    @discardableResult
    package func sendRaw(_ text: String) -> Bool {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
        return sent == bytes.count
    }

    /// Reads until the server closes the connection (or 10 seconds pass) and returns what arrived.
    package func readAll() async -> String {
        await read(until: nil)
    }

    /// Reads until what arrived contains `marker` (with `nil`, until the end), the server closes the connection, or 10
    /// seconds pass without a byte; returns what arrived, leaving the connection open.
    package func read(until marker: String?) async -> String {
        await receive(until: marker).text
    }

    /// Reads until the server closes the connection or 10 seconds pass without a byte; says which came first, so a
    /// test tells a connection the server closed from one it kept open, without timing either.
    package func readUntilClosed() async -> (text: String, closedByServer: Bool) {
        await receive(until: nil)
    }

    private func receive(until marker: String?) async -> (text: String, closedByServer: Bool) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [descriptor] in
                var data = Data()
                var buffer = [UInt8](repeating: 0, count: 4096)
                var closed = false
                while marker.map({ String(decoding: data, as: UTF8.self).range(of: $0) == nil }) ?? true {
                    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                    if count <= 0 {
                        // 0: the server closed; -1 with EAGAIN: the read limit passed with the connection open.
                        closed = count == 0 || errno == ECONNRESET
                        break
                    }
                    data.append(contentsOf: buffer[..<count])
                }
                continuation.resume(returning: (String(decoding: data, as: UTF8.self), closed))
            }
        }
    }

    /// Waits until the server closes the connection without sending anything: `true` when it did, `false` when
    /// bytes arrived or 10 seconds passed first.
    package func closedSilently() async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [descriptor] in
                var byte: UInt8 = 0
                let count = recv(descriptor, &byte, 1, 0)
                continuation.resume(returning: count == 0 || (count < 0 && errno == ECONNRESET))
            }
        }
    }
}
