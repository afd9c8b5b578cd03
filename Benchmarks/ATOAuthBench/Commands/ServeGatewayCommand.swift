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
        // As `atoauth gateway` has it: a connection to the PDS for every call it admits.
        let limits = AsyncHTTPClientTransport.Configuration(
            maximumConnectionsPerHost: GatewayConfiguration.defaultMaximumConcurrentRequests
        )
        try await AsyncHTTPClientTransport.withTransport(configuration: limits) { transport in
            let manager = try await BenchAccounts.manager(count: accounts, pds: pds, transport: transport)
            let gateway = try await BenchGateway.start(manager)
            FileHandle.standardOutput.write(Data("\(gateway.port) \(gateway.token)\n".utf8))
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    _ = FileHandle.standardInput.readDataToEndOfFile()
                    continuation.resume()
                }
            }
            await gateway.stop()
        }
    }
}
