import Crypto
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import OAuthMetadata
import OAuthSessionManager
import WireFormat

/// Client CPU per token request (a `refresh_token` grant) as a confidential client against the same request as a
/// public client, on a loopback server (another process) that verifies nothing, so the process CPU clock counts
/// the client alone.
///
/// Both send the same form with a DPoP proof; the confidential one adds a new client assertion (RFC 7523) per
/// request, as every refresh does. A third variant makes the public request plus one raw P-256 signature over an
/// assertion-sized input: the floor of "one extra signature". The rest of a refresh (re-resolving the DID, the
/// metadata, saving the tokens) is the same for both kinds, so a whole refresh's ratio is lower than this one.
enum ConfidentialRequest {
    /// Median client CPU per request, in seconds.
    struct Result: Sendable {
        /// The public client's request.
        var publicCPU: Double
        /// The confidential client's request.
        var confidentialCPU: Double
        /// Added by one raw signature per request: median of the rounds' (signed − public).
        var signatureInContextCPU: Double
    }

    /// Starts the server process, measures, and stops it.
    static func run(rounds: Int, batch: Int) async throws -> Result {
        try await PlainServerProcess.with { port in try await measure(port: port, rounds: rounds, batch: batch) }
    }

    private enum Variant: CaseIterable {
        case publicClient
        case signed
        case confidential
    }

    private static func measure(port: Int, rounds: Int, batch: Int) async throws -> Result {
        guard let url = URL(string: "http://127.0.0.1:\(port)/oauth/token") else { throw BenchError("bad port") }
        return try await AsyncHTTPClientTransport.withTransport { transport in
            let requests = Requests(transport: transport, url: url)
            for variant in Variant.allCases { try await requests.run(variant, calls: max(50, batch / 4)) }
            var samples: [Variant: [Double]] = [:]
            for round in 0..<rounds {
                for offset in 0..<Variant.allCases.count {
                    let variant = Variant.allCases[(round + offset) % Variant.allCases.count]
                    let cpu = try await Clocks.measure(Clocks.processCPU) {
                        try await requests.run(variant, calls: batch)
                    }
                    samples[variant, default: []].append(cpu.seconds / Double(batch))
                }
            }
            let publicSamples = samples[.publicClient] ?? []
            return Result(
                publicCPU: Samples.median(publicSamples),
                confidentialCPU: Samples.median(samples[.confidential] ?? []),
                signatureInContextCPU: Samples.median(zip(samples[.signed] ?? [], publicSamples).map { $0 - $1 })
            )
        }
    }

    /// The two clients' requests over one transport (one keep-alive connection).
    private struct Requests {
        let executor: DPoPRequestExecutor
        let request: HTTPRequest
        let pairs: [(String, String)]
        let clientKey = ClientKey()
        let rawKey = P256.Signing.PrivateKey()
        let clientID = "https://bench.example.com/client-metadata.json"
        let audience = "https://auth.example.com"
        let signingInput: [UInt8]

        init(transport: AsyncHTTPClientTransport, url: URL) {
            executor = DPoPRequestExecutor(transport: transport, key: DPoPKey())
            pairs = [
                ("grant_type", "refresh_token"), ("refresh_token", Workload.accessToken),
                ("client_id", "https://bench.example.com/client-metadata.json"),
            ]
            request = HTTPRequest(
                method: .post,
                url: url,
                headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
                body: FormEncoding.body(pairs)
            )
            // An assertion's signing input is about 300 bytes; sign as many.
            signingInput = Array(repeating: UInt8(ascii: "a"), count: 300)
        }

        func run(_ variant: Variant, calls: Int) async throws {
            for _ in 0..<calls {
                let response: HTTPResponse
                switch variant {
                case .publicClient:
                    // Each refresh encodes its form, public or confidential.
                    response = try await executor.send(request) { $0.body = FormEncoding.body(pairs) }
                case .signed:
                    Sink.consume(try rawKey.signature(for: signingInput).rawRepresentation.count)
                    response = try await executor.send(request) { $0.body = FormEncoding.body(pairs) }
                case .confidential:
                    response = try await executor.send(request) { attempt in
                        let assertion = try ClientAssertion.make(
                            key: clientKey,
                            clientID: clientID,
                            audience: audience,
                            issuedAt: Date()
                        )
                        attempt.body = FormEncoding.body(
                            pairs + [("client_assertion_type", ClientAssertion.type), ("client_assertion", assertion)]
                        )
                    }
                }
                guard response.status == 200 else { throw BenchError("the plain server answered \(response.status)") }
            }
        }
    }
}
