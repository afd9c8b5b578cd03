import ATClient
import ATProtoSyntax
import AccountManager
import Foundation
import HTTPTransport

/// `atoauth gateway` against the same calls made directly with ``ATClient``, on the plain server (another process,
/// verifying nothing): requests per second with several callers at once, the latency the gateway adds with one
/// caller, and a gateway process's memory with few and many accounts.
///
/// Both paths run in one process on one account manager: the direct callers call `query`; the gateway's callers are
/// plain HTTP clients of a `GatewayServer` in the same process, so the gateway's figure includes its client's cost,
/// as a script's call would. The rounds alternate the two paths.
enum GatewayThroughput {
    struct Result: Sendable {
        /// Median requests per second, directly and through the gateway.
        var directRate: Double
        var gatewayRate: Double
        /// Callers at once in the rate rounds.
        var callers: Int
        /// Latency percentiles (p50, p99) in seconds with one caller.
        var directLatency: (p50: Double, p99: Double)
        var gatewayLatency: (p50: Double, p99: Double)
        /// A gateway process's resident memory, in bytes, after one call as each account, by account count.
        var memory: [(accounts: Int, bytes: Int)]
    }

    static func run(
        calls: Int,
        callers: Int,
        rounds: Int,
        latencyCalls: Int,
        accountCounts: [Int]
    ) async throws -> Result {
        try await PlainServerProcess.with { port in
            guard let pds = URL(string: "http://127.0.0.1:\(port)") else { throw BenchError("bad port \(port)") }
            var result = try await AsyncHTTPClientTransport.withTransport { transport in
                try await measure(
                    pds: pds,
                    transport: transport,
                    calls: calls,
                    callers: callers,
                    rounds: rounds,
                    latencyCalls: latencyCalls
                )
            }
            for count in accountCounts {
                result.memory.append((count, try await memory(accounts: count, pdsPort: port)))
            }
            return result
        }
    }

    // swift-format-ignore: ValidateDocumentationComments
    private static func measure(
        pds: URL,
        transport: any HTTPTransport,
        calls: Int,
        callers: Int,
        rounds: Int,
        latencyCalls: Int
    ) async throws -> Result {
        let accounts = try await BenchAccounts.manager(count: 1, pds: pds, transport: transport)
        let client = accounts.client()
        let method = try NSID(validating: "com.atproto.server.getSession")
        let gateway = try await BenchGateway.start(accounts)
        do {
            let result = try await measure(
                through: gateway,
                client: client,
                method: method,
                calls: calls,
                callers: callers,
                rounds: rounds,
                latencyCalls: latencyCalls
            )
            await gateway.stop()
            return result
        } catch {
            await gateway.stop()
            throw error
        }
    }

    // swift-format-ignore: ValidateDocumentationComments
    private static func measure(
        through gateway: BenchGateway,
        client: ATClient,
        method: NSID,
        calls: Int,
        callers: Int,
        rounds: Int,
        latencyCalls: Int
    ) async throws -> Result {
        guard let url = URL(string: "http://127.0.0.1:\(gateway.port)/xrpc/com.atproto.server.getSession") else {
            throw BenchError("bad port \(gateway.port)")
        }
        let request = HTTPRequest(url: url, headers: ["Authorization": "Bearer \(gateway.token)"])
        return try await AsyncHTTPClientTransport.withTransport { gatewayClient in
            let direct: @Sendable () async throws -> Void = {
                Sink.consume(try await client.query(method).body.count)
            }
            let viaGateway: @Sendable () async throws -> Void = {
                let response = try await gatewayClient.send(request)
                guard response.status == 200 else { throw BenchError("the gateway answered \(response.status)") }
                Sink.consume(response.body.count)
            }
            for call in [direct, viaGateway] { try await repeated(call, calls: max(50, calls / 10), callers: callers) }
            var directRates: [Double] = []
            var gatewayRates: [Double] = []
            for round in 0..<rounds {
                let directFirst = round % 2 == 0
                for isDirect in directFirst ? [true, false] : [false, true] {
                    let call = isDirect ? direct : viaGateway
                    let wall = try await Clocks.measure(Clocks.wall) {
                        try await repeated(call, calls: calls, callers: callers)
                    }
                    let rate = Double(calls) / wall.seconds
                    if isDirect { directRates.append(rate) } else { gatewayRates.append(rate) }
                }
            }
            var directTimes: [Double] = []
            var gatewayTimes: [Double] = []
            for _ in 0..<latencyCalls {
                directTimes.append(try await Clocks.measure(Clocks.wall) { try await direct() }.seconds)
                gatewayTimes.append(try await Clocks.measure(Clocks.wall) { try await viaGateway() }.seconds)
            }
            return Result(
                directRate: Samples.median(directRates),
                gatewayRate: Samples.median(gatewayRates),
                callers: callers,
                directLatency: percentiles(directTimes),
                gatewayLatency: percentiles(gatewayTimes),
                memory: []
            )
        }
    }

    /// Makes `calls` calls with `callers` at once.
    private static func repeated(
        _ call: @escaping @Sendable () async throws -> Void,
        calls: Int,
        callers: Int
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for caller in 0..<callers {
                let share = calls / callers + (caller < calls % callers ? 1 : 0)
                group.addTask { for _ in 0..<share { try await call() } }
            }
            try await group.waitForAll()
        }
    }

    private static func percentiles(_ values: [Double]) -> (p50: Double, p99: Double) {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return (0, 0) }
        func at(_ fraction: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))] }
        return (at(0.5), at(0.99))
    }

    /// A gateway process over `accounts` accounts, after one call as each: its resident memory (`VmRSS`).
    private static func memory(accounts: Int, pdsPort: Int) async throws -> Int {
        try await PlainServerProcess.with(
            ["serve-gateway", "--pds-port", String(pdsPort), "--accounts", String(accounts)]
        ) { gateway in
            guard let url = URL(string: "http://127.0.0.1:\(gateway.port)/xrpc/com.atproto.server.getSession") else {
                throw BenchError("bad port \(gateway.port)")
            }
            try await AsyncHTTPClientTransport.withTransport { transport in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<8 {
                        group.addTask {
                            for index in stride(from: worker, to: accounts, by: 8) {
                                var request = HTTPRequest(
                                    url: url,
                                    headers: ["Authorization": "Bearer \(gateway.rest)"]
                                )
                                request.headers.add(name: "atoauth-account", value: BenchAccounts.did(index))
                                let response = try await transport.send(request)
                                guard response.status == 200 else {
                                    throw BenchError("the gateway answered \(response.status) for account \(index)")
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            let status = try String(contentsOfFile: "/proc/\(gateway.pid)/status", encoding: .utf8)
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
            else { throw BenchError("no VmRSS for the gateway process") }
            return kilobytes * 1024
        }
    }
}
