import ArgumentParser
import Foundation
import Gateway
import HTTPTransport

/// `atoauth-bench serve-gateway --pds-port P --accounts N`: a gateway over N accounts signed in at the plain server,
/// in a process of its own so that its memory is the gateway's.
///
/// It prints `PORT TOKEN` on one line (`PORT TOKEN NAMED-TOKEN` with `--named-token`), then serves until its standard
/// input closes.
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

    @Option(help: "Append an audit line per request to this file.")
    var auditLog: String?

    @Flag(help: "Also make a named token limited to the first account and one permission, and print it.")
    var namedToken = false

    func run() async throws {
        guard let pds = URL(string: "http://127.0.0.1:\(pdsPort)") else { throw BenchError("bad port \(pdsPort)") }
        // As `atoauth gateway` has it: a connection to the PDS for every call it admits.
        let limits = AsyncHTTPClientTransport.Configuration(
            maximumConnectionsPerHost: GatewayConfiguration.defaultMaximumConcurrentRequests
        )
        try await AsyncHTTPClientTransport.withTransport(configuration: limits) { transport in
            let manager = try await BenchAccounts.manager(count: accounts, pds: pds, transport: transport)
            let gateway = try await BenchGateway.start(manager, auditLog: auditLog.map { URL(fileURLWithPath: $0) })
            let named = namedToken ? " " + (try await BenchGateway.scopedToken(manager)) : ""
            FileHandle.standardOutput.write(Data("\(gateway.port) \(gateway.token)\(named)\n".utf8))
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
