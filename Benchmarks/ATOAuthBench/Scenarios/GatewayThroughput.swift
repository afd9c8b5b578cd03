import ATClient
import ATProtoSyntax
import AccountManager
import Foundation
import HTTPTransport

/// `atoauth gateway` against the same calls made directly with ``ATClient``, on the plain server (another process,
/// verifying nothing): requests per second with several callers at once, the latency the gateway adds with one
/// caller, and a gateway process's memory with few and many accounts.
///
/// The gateway is a process of its own (`serve-gateway`), as `atoauth gateway` is. The direct calls are `query`
/// from this process. The gateway is called two ways from this process: by ``KeepAliveCaller`` (the least any
/// program pays for an HTTP call, so the figure shows the gateway's own cost: the goal rows), and by
/// AsyncHTTPClient (a full-featured client's cost added on top). The rounds rotate the three ways.
enum GatewayThroughput {
    /// One way of calling: its median rate and latency percentiles.
    struct Way: Sendable {
        /// Median requests per second with ``Result/callers`` callers.
        var rate: Double
        /// Latency percentiles (p50, p99) in seconds with one caller.
        var latency: (p50: Double, p99: Double)
    }

    struct Result: Sendable {
        /// `ATClient.query` in this process.
        var direct: Way
        /// Through the gateway process, called by ``KeepAliveCaller``.
        var gateway: Way
        /// Through the gateway process, called by AsyncHTTPClient.
        var gatewayFromFullClient: Way
        /// Callers at once in the rate rounds.
        var callers: Int
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
            let gatewayArguments = ["serve-gateway", "--pds-port", String(port), "--accounts", "1"]
            var result = try await PlainServerProcess.with(gatewayArguments) { gateway in
                try await AsyncHTTPClientTransport.withTransport { transport in
                    let accounts = try await BenchAccounts.manager(count: 1, pds: pds, transport: transport)
                    let ways = try Ways(
                        client: accounts.client(),
                        gateway: gateway,
                        fullClient: transport,
                        method: try NSID(validating: "com.atproto.server.getSession")
                    )
                    return try await measure(
                        ways,
                        calls: calls,
                        callers: callers,
                        rounds: rounds,
                        latencyCalls: latencyCalls
                    )
                }
            }
            for count in accountCounts {
                result.memory.append((count, try await memory(accounts: count, pdsPort: port)))
            }
            return result
        }
    }

    /// The three ways of making the call.
    private struct Ways {
        let direct: @Sendable () async throws -> Void
        let fullClient: @Sendable () async throws -> Void
        let lean: @Sendable () throws -> KeepAliveCaller

        init(client: ATClient, gateway: PlainServerProcess, fullClient: any HTTPTransport, method: NSID) throws {
            let path = "/xrpc/com.atproto.server.getSession"
            guard let url = URL(string: "http://127.0.0.1:\(gateway.port)\(path)") else {
                throw BenchError("bad port \(gateway.port)")
            }
            let token = gateway.rest
            let request = HTTPRequest(url: url, headers: ["Authorization": "Bearer \(token)"])
            direct = { Sink.consume(try await client.query(method).body.count) }
            self.fullClient = {
                let response = try await fullClient.send(request)
                guard response.status == 200 else { throw BenchError("the gateway answered \(response.status)") }
                Sink.consume(response.body.count)
            }
            lean = { [port = gateway.port] in
                try KeepAliveCaller(port: port, path: path, headers: [("Authorization", "Bearer \(token)")])
            }
        }
    }

    private enum Kind: CaseIterable {
        case direct
        case gateway
        case gatewayFromFullClient
    }

    private static func measure(
        _ ways: Ways,
        calls: Int,
        callers: Int,
        rounds: Int,
        latencyCalls: Int
    ) async throws -> Result {
        func rate(_ kind: Kind, _ calls: Int) async throws -> Double {
            let wall: Double
            switch kind {
            case .direct:
                wall = try await Clocks.measure(Clocks.wall) {
                    try await repeated(ways.direct, calls: calls, callers: callers)
                }.seconds
            case .gatewayFromFullClient:
                wall = try await Clocks.measure(Clocks.wall) {
                    try await repeated(ways.fullClient, calls: calls, callers: callers)
                }.seconds
            case .gateway:
                wall = try await KeepAliveCaller.run(calls: calls, callers: callers, make: ways.lean)
            }
            return Double(calls) / wall
        }
        for kind in Kind.allCases { _ = try await rate(kind, max(50, calls / 10)) }
        var rates: [Kind: [Double]] = [:]
        for round in 0..<rounds {
            for offset in 0..<Kind.allCases.count {
                let kind = Kind.allCases[(round + offset) % Kind.allCases.count]
                rates[kind, default: []].append(try await rate(kind, calls))
            }
        }
        var times: [Kind: [Double]] = [:]
        let lean = try ways.lean()
        for _ in 0..<latencyCalls {
            times[.direct, default: []].append(
                try await Clocks.measure(Clocks.wall) { try await ways.direct() }.seconds
            )
            times[.gatewayFromFullClient, default: []].append(
                try await Clocks.measure(Clocks.wall) { try await ways.fullClient() }.seconds
            )
        }
        // The lean caller's latency is timed on a thread of its own, as its rate is.
        times[.gateway] = try await KeepAliveCaller.onThreads(1) { _ in
            try (0..<latencyCalls).map { _ in try Clocks.measure(Clocks.wall) { try lean.call() }.seconds }
        }.first
        func way(_ kind: Kind) -> Way {
            Way(rate: Samples.median(rates[kind] ?? []), latency: percentiles(times[kind] ?? []))
        }
        return Result(
            direct: way(.direct),
            gateway: way(.gateway),
            gatewayFromFullClient: way(.gatewayFromFullClient),
            callers: callers,
            memory: []
        )
    }

    /// Makes `calls` calls with `callers` at once.
    private static func repeated(
        _ call: @escaping @Sendable () async throws -> Void,
        calls: Int,
        callers: Int
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for caller in 0..<callers {
                let share = Workload.share(of: calls, among: callers, for: caller)
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
