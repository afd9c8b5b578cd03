import ATOAuthTesting
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Synchronization
import Testing

@Suite("A streamed request answers a nonce challenge once, sending its body again")
struct StreamedNonceTests {
    static let body = Data.patterned(3 << 20, step: 7, start: 3)

    @Test(
        "a resource server's 401 use_dpop_nonce is retried with the whole body and a new proof carrying the nonce",
        arguments: [26, 100_000]  // The challenge's own body: short, or past the 64 KiB an error is read ahead.
    )
    func retriedWithBody(challengeSize: Int) async throws {
        let attempts = Mutex(0)
        let handler: LoopbackHTTPServer.Handler = { _ in
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            guard attempt > 1 else {
                return ScriptedResponse(
                    status: 401,
                    headers: [("WWW-Authenticate", #"DPoP error="use_dpop_nonce""#), ("DPoP-Nonce", "n-1")],
                    body: Data(#"{"error":"use_dpop_nonce"}"#.utf8).padded(to: challengeSize)
                )
            }
            return ScriptedResponse(status: 200, headers: [("Content-Type", "application/json")], body: Data("{}".utf8))
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            try await AsyncHTTPClientTransport.withTransport { transport in
                let cache = DPoPNonceCache()
                let executor = DPoPRequestExecutor(transport: transport, key: DPoPKey(), nonceCache: cache)
                let request = HTTPRequest(method: .post, url: server.url("/xrpc/com.atproto.repo.uploadBlob"))
                let response = try await executor.stream(request, body: .bytes(Self.body), accessToken: "token")
                #expect(response.status == 200)
                #expect(try await response.body.collect(upTo: 100) == Data("{}".utf8))
                let requests = server.requests
                #expect(requests.count == 2)
                #expect(requests.map(\.body) == [Self.body, Self.body])
                #expect(cache.challengesAnswered == 1)
                let proofs = requests.compactMap { $0.header("dpop") }
                #expect(Set(proofs).count == 2)
                #expect(requests.allSatisfy { $0.header("authorization") == "DPoP token" })
                let second = try #require(proofs.last?.split(separator: ".").dropFirst().first)
                #expect(String(decoding: try #require(Self.base64URL(String(second))), as: UTF8.self).contains("n-1"))
            }
        }
    }

    @Test("a large error answer is passed on as it came, not read as a challenge")
    func largeErrorPassedOn() async throws {
        let large = Data(repeating: UInt8(ascii: "x"), count: 200_000)
        try await LoopbackHTTPServer.withServer(
            handler: LoopbackHTTPServer.always(ScriptedResponse(status: 400, body: large))
        ) {
            server in
            try await AsyncHTTPClientTransport.withTransport { transport in
                let executor = DPoPRequestExecutor(transport: transport, key: DPoPKey())
                let request = HTTPRequest(url: server.url("/xrpc/com.example.get"))
                let response = try await executor.stream(request, body: nil, accessToken: "token")
                #expect(response.status == 400)
                #expect(try await response.body.collect(upTo: 1 << 20) == large)
                #expect(server.requests.count == 1)
            }
        }
    }

    static func base64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

extension Data {
    /// The data followed by spaces up to `count` bytes (JSON allows them after the value).
    fileprivate func padded(to count: Int) -> Data {
        self + Data(repeating: UInt8(ascii: " "), count: Swift.max(0, count - self.count))
    }
}
