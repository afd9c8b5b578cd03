import Foundation

/// What lending less costs the gateway, in requests per second from the lean keep-alive caller.
///
/// A scoped named token (looked up in the store with a revision check, its account and permissions judged on every
/// call) against the start-up token, on one gateway; and the audit log on against off, on two gateways side by side.
/// The rounds rotate the ways.
enum GatewayLending {
    struct Result: Sendable {
        /// Median requests per second with the start-up token, audit log off.
        var startup: Double
        /// The same gateway with the scoped named token.
        var named: Double
        /// Another gateway, the audit log on, with its start-up token.
        var audited: Double
        /// Callers at once.
        var callers: Int
    }

    private enum Way: CaseIterable {
        case startup
        case named
        case audited
    }

    static func run(calls: Int, callers: Int, rounds: Int) async throws -> Result {
        let audit = FileManager.default.temporaryDirectory.appendingPathComponent("bench-audit-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: audit) }
        return try await PlainServerProcess.with { port in
            let plain = ["serve-gateway", "--pds-port", String(port), "--accounts", "1"]
            return try await PlainServerProcess.with(plain + ["--named-token"]) { gateway in
                try await PlainServerProcess.with(plain + ["--audit-log", audit.path]) { audited in
                    let tokens = gateway.rest.split(separator: " ").map(String.init)
                    guard tokens.count == 2 else { throw BenchError("serve-gateway printed no named token") }
                    func caller(_ way: Way) throws -> KeepAliveCaller {
                        let (port, token) =
                            switch way {
                            case .startup: (gateway.port, tokens[0])
                            case .named: (gateway.port, tokens[1])
                            case .audited: (audited.port, audited.rest)
                            }
                        return try KeepAliveCaller(
                            port: port,
                            path: "/xrpc/com.atproto.server.getSession",
                            headers: [("Authorization", "Bearer \(token)")]
                        )
                    }
                    func rate(_ way: Way, _ calls: Int) async throws -> Double {
                        let wall = try await KeepAliveCaller.run(calls: calls, callers: callers) { try caller(way) }
                        return Double(calls) / wall
                    }
                    for way in Way.allCases { _ = try await rate(way, max(50, calls / 10)) }
                    var rates: [Way: [Double]] = [:]
                    for round in 0..<rounds {
                        for offset in 0..<Way.allCases.count {
                            let way = Way.allCases[(round + offset) % Way.allCases.count]
                            rates[way, default: []].append(try await rate(way, calls))
                        }
                    }
                    return Result(
                        startup: Samples.median(rates[.startup] ?? []),
                        named: Samples.median(rates[.named] ?? []),
                        audited: Samples.median(rates[.audited] ?? []),
                        callers: callers
                    )
                }
            }
        }
    }
}
