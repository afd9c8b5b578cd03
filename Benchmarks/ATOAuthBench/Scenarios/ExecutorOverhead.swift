import ATClient
import ATProtoSyntax
import AccountManager
import Crypto
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Keystore

/// Client CPU per XRPC call with DPoP against the same transport without it, on a loopback server (another process)
/// that verifies nothing, so the process CPU clock counts the client alone.
///
/// Four clients send the same `GET` in turn, each `batch` calls per round, the order rotating every round:
/// the bare transport with `Authorization: Bearer <token>` (what a client without DPoP sends); the same plus one raw
/// P-256 signature of a proof-sized input per call, not sent (the floor: a signature made between requests, whose
/// precomputed tables the I/O path has pushed out of the cache); the ``DPoPRequestExecutor`` with
/// `Authorization: DPoP <token>` and a proof; and ``ATClient`` through its account's long-lived connection, once
/// returning the raw answer (`query`) and once decoding it (`getSession`).
enum ExecutorOverhead {
    /// Median client CPU per call, in seconds.
    struct Result: Sendable {
        /// The transport alone.
        var plainCPU: Double
        /// Added by one raw signature per call: median of the rounds' (signed − plain).
        var signatureInContextCPU: Double
        /// Added by the executor: median of the rounds' (executor − plain).
        var executorAddedCPU: Double
        /// Added by ``ATClient/query(_:parameters:proxy:as:)``, the answer left raw: median of (raw − plain).
        var clientRawAddedCPU: Double
        /// Added by `ATClient.getSession()`, the answer decoded: median of the rounds' (client − plain).
        var clientAddedCPU: Double
    }

    /// Starts the server process, measures, and stops it.
    static func run(rounds: Int, batch: Int) async throws -> Result {
        try await PlainServerProcess.with { port in try await measure(port: port, rounds: rounds, batch: batch) }
    }

    private static func measure(port: Int, rounds: Int, batch: Int) async throws -> Result {
        guard let origin = URL(string: "http://127.0.0.1:\(port)"),
            let url = URL(string: "http://127.0.0.1:\(port)/xrpc/com.atproto.server.getSession")
        else { throw BenchError("bad port \(port)") }
        return try await AsyncHTTPClientTransport.withTransport { transport in
            let clients = try await Clients(transport: transport, origin: origin, url: url)
            for variant in Variant.allCases { try await clients.run(variant, calls: max(50, batch / 4)) }
            var samples: [Variant: [Double]] = [:]
            for round in 0..<rounds {
                for offset in 0..<Variant.allCases.count {
                    let variant = Variant.allCases[(round + offset) % Variant.allCases.count]
                    let cpu = try await Clocks.measure(Clocks.processCPU) {
                        try await clients.run(variant, calls: batch)
                    }
                    samples[variant, default: []].append(cpu.seconds / Double(batch))
                }
            }
            let plain = samples[.plain] ?? []
            func added(_ variant: Variant) -> Double {
                Samples.median(zip(samples[variant] ?? [], plain).map { $0 - $1 })
            }
            return Result(
                plainCPU: Samples.median(plain),
                signatureInContextCPU: added(.signed),
                executorAddedCPU: added(.executor),
                clientRawAddedCPU: added(.clientRaw),
                clientAddedCPU: added(.client)
            )
        }
    }

    private enum Variant: CaseIterable {
        case plain
        case signed
        case executor
        case clientRaw
        case client
    }

    /// The clients, sharing one transport (one keep-alive connection for sequential calls).
    private struct Clients {
        let transport: AsyncHTTPClientTransport
        let plainRequest: HTTPRequest
        let dpopRequest: HTTPRequest
        let executor: DPoPRequestExecutor
        let client: ATClient
        let getSession: NSID
        let key: DPoPKey
        let signingInput: [UInt8]

        init(transport: AsyncHTTPClientTransport, origin: URL, url: URL) async throws {
            self.transport = transport
            plainRequest = HTTPRequest(
                url: url,
                headers: ["Accept": "application/json", "Authorization": "Bearer \(Workload.accessToken)"]
            )
            dpopRequest = HTTPRequest(url: url, headers: ["Accept": "application/json"])
            let key = DPoPKey()
            self.key = key
            executor = DPoPRequestExecutor(transport: transport, key: key)
            let proof = try executor.signer.proof(
                method: .get,
                url: url,
                nonce: PlainResponder.nonce,
                accessToken: Workload.accessToken,
                issuedAt: Date()
            )
            guard let lastDot = proof.utf8.lastIndex(of: UInt8(ascii: ".")) else { throw BenchError("not a JWS") }
            signingInput = Array(proof.utf8[..<lastDot])
            let keystore = InMemoryKeystore()
            let did = try await StoredSession.save(
                pds: origin,
                accessToken: Workload.accessToken,
                key: key,
                now: Date(),
                into: keystore
            )
            client = try await AccountManager(keystore: keystore, transport: transport).client(for: .did(did))
            getSession = try NSID(validating: "com.atproto.server.getSession")
        }

        func run(_ variant: Variant, calls: Int) async throws {
            for _ in 0..<calls {
                switch variant {
                case .plain:
                    try Self.check(try await transport.send(plainRequest).status)
                case .signed:
                    Sink.consume(try key.privateKey.signature(for: signingInput).rawRepresentation.count)
                    try Self.check(try await transport.send(plainRequest).status)
                case .executor:
                    try Self.check(try await executor.send(dpopRequest, accessToken: Workload.accessToken).status)
                case .clientRaw:
                    Sink.consume(try await client.query(getSession).body.count)
                case .client:
                    Sink.consume(try await client.getSession().handle.utf8.count)
                }
            }
        }

        private static func check(_ status: Int) throws {
            guard status == 200 else { throw BenchError("the plain server answered \(status)") }
        }
    }
}
