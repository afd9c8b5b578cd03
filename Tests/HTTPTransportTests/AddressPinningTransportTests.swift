import ATOAuthTesting
import Foundation
import HTTPTransport
import Testing

@Suite("AsyncHTTPClientTransport pins connections to a given address", .timeLimit(.minutes(1)))
struct AddressPinningTransportTests {
    /// Limits that end a hung request within the time limit yet never cut off an answer on a loaded 2-core machine.
    static let limits = AsyncHTTPClientTransport.Configuration(connectTimeout: .seconds(20), totalTimeout: .seconds(40))

    /// The production transport, looking the host up again for an unpinned request as any transport that resolves
    /// names itself does, through `resolver`, whose answer may have changed since the check.
    struct ResolvingAgainTransport: AddressPinningTransport {
        struct NoAnswer: Error {}

        let base: AsyncHTTPClientTransport
        let resolver: RebindingAddressResolver

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            guard let address = try await resolver.addresses(for: request.url.host() ?? "").first else {
                throw NoAnswer()
            }
            return try await base.send(request, connectingTo: address.description)
        }

        func send(_ request: HTTPRequest, connectingTo address: String) async throws -> HTTPResponse {
            try await base.send(request, connectingTo: address)
        }
    }

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

    @Test("pinned sends to one host and address share a kept-alive connection, as an account's writes do")
    func pinnedSendsReuseTheirConnection() async throws {
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(.text("ok"))) { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: Self.limits) { transport in
                let target = try #require(
                    URL(string: "http://pds.invalid:\(server.port)/xrpc/com.atproto.repo.createRecord")
                )
                for _ in 0..<5 {
                    let response = try await transport.send(
                        HTTPRequest(method: .post, url: target, body: Data("{}".utf8)),
                        connectingTo: "127.0.0.1"
                    )
                    #expect(response.status == 200)
                }
                #expect(server.requests.count == 5)
                #expect(server.connectionCount == 1, "five pinned writes, one connection")
            }
        }
    }

    @Test("a host spelled in another case reaches the pinned address too, never a DNS answer")
    func pinnedHostInAnotherCase() async throws {
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(.text("ok"))) { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: Self.limits) { transport in
                // Metadata may spell the issuer's host otherwise than the URL it was fetched from; `.invalid`
                // never resolves (RFC 6761), so only the pin can make either connection.
                for host in ["pinned.invalid", "PINNED.invalid", "pinned.invalid"] {
                    let target = try #require(URL(string: "http://\(host):\(server.port)/"))
                    let response = try await transport.send(HTTPRequest(url: target), connectingTo: "127.0.0.1")
                    #expect(response.status == 200)
                }
                #expect(server.requests.count == 3)
            }
        }
    }

    @Test("a token POST and its retry reach the checked address though the name then resolves where nothing listens")
    func pinnedPOSTOutlivesRebinding() async throws {
        let answer = LoopbackHTTPServer.always(.json(#"{"access_token":"t"}"#))
        try await LoopbackHTTPServer.withServer(handler: answer) { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: Self.limits) { base in
                // The check sees 127.0.0.1, where the server listens; every later look-up answers ::1, where it
                // does not.
                let resolver = RebindingAddressResolver([["127.0.0.1"], ["::1"]])
                let transport = ResolvingAgainTransport(base: base, resolver: resolver)
                let fetcher = SafeFetcher(
                    transport: transport,
                    configuration: SafeFetcher.Configuration(allowHTTPLoopback: true),
                    addressResolver: resolver
                )
                let token = try #require(URL(string: "http://localhost:\(server.port)/oauth/token"))
                let post = HTTPRequest(
                    method: .post,
                    url: token,
                    headers: ["Content-Type": "application/x-www-form-urlencoded"],
                    body: Data("grant_type=refresh_token".utf8)
                )
                let pinned = try await fetcher.pinnedTransport(for: token)
                #expect(try await pinned.send(post).status == 200)
                #expect(try await pinned.send(post).status == 200)
                #expect(server.requests.map(\.path) == ["/oauth/token", "/oauth/token"])
                #expect(resolver.lookUps == 1)

                // Unpinned, the same POST follows the new answer and reaches nothing.
                await #expect(throws: TransportError.self) { try await transport.send(post) }
                #expect(server.requests.count == 2)
            }
        }
    }

    @Test("a loopback name that also resolves to a private address is refused before anything is sent")
    func mixedLoopbackAnswer() async throws {
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(.text("reached"))) { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: Self.limits) { base in
                let resolver = RebindingAddressResolver([["127.0.0.1", "192.168.1.1"]])
                let fetcher = SafeFetcher(
                    transport: ResolvingAgainTransport(base: base, resolver: resolver),
                    configuration: SafeFetcher.Configuration(allowHTTPLoopback: true),
                    addressResolver: resolver
                )
                let token = try #require(URL(string: "http://localhost:\(server.port)/oauth/token"))
                let error = await #expect(throws: FetchError.self) { try await fetcher.pinnedTransport(for: token) }
                #expect(error?.code == .unsafeDestination)
                #expect(server.requests.isEmpty && server.connectionCount == 0)
            }
        }
    }
}
