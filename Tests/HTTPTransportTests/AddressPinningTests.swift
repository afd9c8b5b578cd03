import ATOAuthTesting
import HTTPTransport
import Synchronization
import Testing

@Suite("Resolve, check, then pin")
struct AddressPinningTests {
    /// Records where each request was pinned; never touches the network.
    final class PinningRecorder: AddressPinningTransport {
        let pinned = Mutex<[String]>([])
        let unpinned = Mutex(0)

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            unpinned.withLock { $0 += 1 }
            return HTTPResponse.json(["ok": true])
        }

        func send(_ request: HTTPRequest, connectingTo address: String) async throws -> HTTPResponse {
            pinned.withLock { $0.append(address) }
            return HTTPResponse.json(["ok": true])
        }
    }

    @Test("a fetch connects to the very address that passed the check")
    func pinsCheckedAddress() async throws {
        let transport = PinningRecorder()
        let fetcher = SafeFetcher(
            transport: transport,
            addressResolver: FakeAddressResolver(table: ["pds.example.com": ["93.184.216.34"]])
        )
        _ = try await fetcher.get(
            try url("https://pds.example.com/.well-known/oauth-protected-resource"),
            expecting: .metadata
        )
        #expect(transport.pinned.withLock { $0 } == ["93.184.216.34"])
        #expect(transport.unpinned.withLock { $0 } == 0)
    }

    @Test("a name that also resolves to a private address is refused before any connection")
    func refusesMixedAnswers() async throws {
        let transport = PinningRecorder()
        let fetcher = SafeFetcher(
            transport: transport,
            addressResolver: FakeAddressResolver(table: ["pds.example.com": ["93.184.216.34", "10.0.0.7"]])
        )
        await #expect(throws: FetchError.self) {
            try await fetcher.get(try url("https://pds.example.com/.well-known/did.json"), expecting: .metadata)
        }
        #expect(transport.pinned.withLock { $0 }.isEmpty && transport.unpinned.withLock { $0 } == 0)
    }
}
