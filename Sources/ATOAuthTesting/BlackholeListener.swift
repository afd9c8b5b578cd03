import NIOCore
import NIOPosix

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

    /// Closes the filler connections and the listener.
    package func shutdown() async {
        for filler in fillers { try? await filler.close() }
        try? await listener.close()
    }
}
