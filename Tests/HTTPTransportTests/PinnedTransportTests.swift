import ATOAuthTesting
import Failures
import Foundation
import HTTPTransport
import Testing

@Suite("A transport pinned to a checked destination")
struct PinnedTransportTests {
    let token = "https://auth.example.com/oauth/token"

    /// A form POST such as a token request.
    func post(_ target: String) throws -> HTTPRequest {
        HTTPRequest(
            method: .post,
            url: try url(target),
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data("grant_type=refresh_token".utf8)
        )
    }

    @Test("a POST and its retry connect to the checked address, whatever the name resolves to later")
    func pinsEveryRequest() async throws {
        let transport = PinningRecorder()
        // Rebinding: the check sees a public address, every later look-up a private one.
        let resolver = RebindingAddressResolver([["93.184.216.34"], ["10.0.0.7"]])
        let fetcher = SafeFetcher(transport: transport, addressResolver: resolver)
        let pinned = try await fetcher.pinnedTransport(for: try url(token))
        #expect(pinned.address == IPAddress("93.184.216.34"))
        _ = try await pinned.send(try post(token))
        _ = try await pinned.send(try post(token))
        #expect(transport.connections == ["93.184.216.34", "93.184.216.34"])
        #expect(resolver.lookUps == 1)

        // A new destination check sees the new answer and refuses it.
        let error = await #expect(throws: FetchError.self) { try await fetcher.pinnedTransport(for: try url(token)) }
        #expect(error?.category == .securityCheckFailed)
        #expect(transport.connections.count == 2)
    }

    @Test("a name that also resolves to a private address is refused before anything is sent")
    func refusesPrivateAnswer() async throws {
        let transport = PinningRecorder()
        let fetcher = SafeFetcher(
            transport: transport,
            addressResolver: FakeAddressResolver(table: ["auth.example.com": ["93.184.216.34", "10.0.0.7"]])
        )
        let error = await #expect(throws: FetchError.self) { try await fetcher.pinnedTransport(for: try url(token)) }
        #expect(error?.code == .unsafeDestination)
        #expect(transport.connections.isEmpty)
    }

    @Test("the checked host is pinned whatever its case; another host and an address literal go out unpinned")
    func pinsOnlyTheCheckedHost() async throws {
        let transport = PinningRecorder()
        let resolver = RebindingAddressResolver([["93.184.216.34"]])
        let fetcher = SafeFetcher(transport: transport, addressResolver: resolver)
        let pinned = try await fetcher.pinnedTransport(for: try url(token))
        _ = try await pinned.send(try post("https://AUTH.Example.com/oauth/par"))
        _ = try await pinned.send(try post("https://other.example.com/oauth/token"))
        #expect(transport.connections == ["93.184.216.34", nil])

        let literal = try await fetcher.pinnedTransport(for: try url("https://93.184.216.34/oauth/token"))
        #expect(literal.address == nil)
        _ = try await literal.send(try post("https://93.184.216.34/oauth/token"))
        #expect(transport.connections == ["93.184.216.34", nil, nil])
        #expect(resolver.lookUps == 1)
    }

    @Test("over a transport that cannot pin, requests go out as it sends them")
    func plainTransport() async throws {
        let transport = ScriptedTransport()
        let fetcher = SafeFetcher.offline(transport)
        let pinned = try await fetcher.pinnedTransport(for: try url(token))
        _ = try await pinned.send(try post(token))
        #expect(transport.requests.map(\.url.absoluteString) == [token])
    }
}
