import ATOAuthTesting
import Foundation
import HTTPTransport
import Testing

@Suite("AsyncHTTPClientTransport pins connections to a given address")
struct AddressPinningTransportTests {
    @Test("a host that cannot resolve is reached at the pinned address, with its own name in Host")
    func pinnedConnection() async throws {
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(.text("pinned"))) { server in
            try await AsyncHTTPClientTransport.withTransport { transport in
                // `.invalid` never resolves (RFC 6761): only the pin can make this connection.
                let target = try #require(URL(string: "http://pinned.invalid:\(server.port)/here"))
                let response = try await transport.send(HTTPRequest(url: target), connectingTo: "127.0.0.1")
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self) == "pinned")
                #expect(server.requests.first?.header("Host") == "pinned.invalid:\(server.port)")
            }
        }
    }
}
