import ArgumentParser
import Foundation
import Gateway
import HTTPTransport

/// `atoauth-bench serve-gateway --pds-port P --accounts N`: a gateway over N accounts signed in at the plain server,
/// in a process of its own so that its memory is the gateway's.
///
/// It prints `PORT TOKEN` on one line, then serves until its standard input closes.
struct ServeGatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-gateway",
        abstract: "Serve a gateway over N accounts until standard input closes (used by the benchmark itself).",
        shouldDisplay: false
    )

    @Option(help: "The plain server's port on 127.0.0.1, the accounts' PDS.")
    var pdsPort: Int

    @Option(help: "How many accounts are signed in.")
    var accounts: Int

    func run() async throws {
        guard let pds = URL(string: "http://127.0.0.1:\(pdsPort)") else { throw BenchError("bad port \(pdsPort)") }
        try await AsyncHTTPClientTransport.withTransport { transport in
            let manager = try await BenchAccounts.manager(count: accounts, pds: pds, transport: transport)
            let spool = FileManager.default.temporaryDirectory.appendingPathComponent("bench-spool-\(UUID())")
            defer { try? FileManager.default.removeItem(at: spool) }
            let configuration = GatewayConfiguration(
                listen: .tcp(host: "127.0.0.1", port: 0),
                token: GatewayToken.generate(),
                spoolDirectory: spool,
                maximumConcurrentRequests: 4096
            )
            let server = try GatewayServer(configuration: configuration, accounts: manager)
            let task = Task { try await server.run() }
            guard case .tcp(_, let port) = try await server.boundAddress() else { throw BenchError("not on TCP") }
            FileHandle.standardOutput.write(Data("\(port) \(configuration.token)\n".utf8))
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    _ = FileHandle.standardInput.readDataToEndOfFile()
                    continuation.resume()
                }
            }
            task.cancel()
            _ = try? await task.value
        }
    }
}
