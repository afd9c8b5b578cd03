import ArgumentParser
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// `atoauth-bench serve-plain`: the non-verifying loopback server, run in a child process so that the parent's
/// CPU clock counts the client only.
///
/// It prints its port on one line, then serves until its standard input closes (when the parent is done, or dies).
struct ServePlainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-plain",
        abstract: "Serve fixed answers on 127.0.0.1 until standard input closes (used by the benchmark itself).",
        shouldDisplay: false
    )

    func run() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(PlainResponder())
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        FileHandle.standardOutput.write(Data("\(channel.localAddress?.port ?? 0)\n".utf8))
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                _ = FileHandle.standardInput.readDataToEndOfFile()
                continuation.resume()
            }
        }
        try await channel.close()
        try await group.shutdownGracefully()
    }
}
