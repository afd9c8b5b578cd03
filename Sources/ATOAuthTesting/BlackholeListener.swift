import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A TCP port on 127.0.0.1 whose accept queue is full, so a new connection hangs in its handshake: the way to make a
/// connect time out without leaving the machine.
///
/// The listener never accepts. It is filled with connections until the kernel starts dropping new handshakes, which
/// on Linux happens after one with a listen backlog of 0; ``start()`` checks that it did.
package final class BlackholeListener: Sendable {
    private struct CouldNotFill: Error, CustomStringConvertible {
        var description: String { "the accept queue of the blackhole listener never filled up" }
    }

    /// The port whose handshakes hang.
    package let port: Int
    private let listener: any Channel
    private let fillers: [any Channel]

    private init(port: Int, listener: any Channel, fillers: [any Channel]) {
        self.port = port
        self.listener = listener
        self.fillers = fillers
    }

    /// Listens on a new port and fills its accept queue.
    package static func start() async throws -> BlackholeListener {
        let group = MultiThreadedEventLoopGroup.singleton
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 0)
            .serverChannelOption(.autoRead, value: false)
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let port = listener.localAddress?.port ?? 0
        let address = try SocketAddress(ipAddress: "127.0.0.1", port: port)
        var fillers: [any Channel] = []
        for _ in 0..<16 {
            do {
                let filler = try await ClientBootstrap(group: group)
                    .connectTimeout(.milliseconds(200))
                    .connect(to: address)
                    .get()
                fillers.append(filler)
            } catch ChannelError.connectTimeout {
                // This handshake was dropped: the queue is full, and the next one will hang as well.
                return BlackholeListener(port: port, listener: listener, fillers: fillers)
            }
        }
        for filler in fillers { try? await filler.close() }
        try? await listener.close()
        throw CouldNotFill()
    }

    /// How many handshakes to this port hang now: the connections to it in state SYN-SENT, read from the kernel's
    /// table (`/proc/net/tcp`), so a test sees a client's attempt arrive without the listener accepting it.
    package var hangingHandshakes: Int {
        #if os(Linux)
        // Read to its end: the kernel makes the table a page at a time, which a single read stops after.
        guard let bytes = try? FileHandle(forReadingAtPath: "/proc/net/tcp")?.readToEnd() else { return 0 }
        let table = String(decoding: bytes, as: UTF8.self)
        let remote = ":" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
        // Columns: sl, local_address, rem_address, st; SYN-SENT is state 02.
        return table.split(separator: "\n").dropFirst().filter { line in
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            return columns.count > 3 && columns[2].hasSuffix(remote) && columns[3] == "02"
        }.count
        #else
        return 0
        #endif
    }

    /// Closes the filler connections and the listener.
    package func shutdown() async {
        for filler in fillers { try? await filler.close() }
        try? await listener.close()
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}

/// A handshake of the test's own to a ``BlackholeListener``, started without waiting (a non-blocking `connect`).
///
/// While it hangs, the kernel has not given up on handshakes started at the same time. Closed when released.
package final class BlackholeWitness: Sendable {
    private struct ConnectFailed: Error, CustomStringConvertible {
        var description: String { "the witness's handshake did not start" }
    }

    private let descriptor: Int32

    /// Starts a handshake to `127.0.0.1:port`.
    package init(port: Int) throws {
        let descriptor = makeStreamSocket()
        guard descriptor >= 0 else { throw ConnectFailed() }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var address = loopbackAddress(port: UInt16(clamping: port))
        let started = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 || errno == EINPROGRESS
            }
        }
        guard started else {
            close(descriptor)
            throw ConnectFailed()
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
