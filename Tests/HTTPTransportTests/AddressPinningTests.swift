import ATOAuthTesting
import HTTPTransport
import Testing

@Suite("Resolve, check, then pin")
struct AddressPinningTests {
    @Test("a fetch connects to the very address that passed the check")
    func pinsCheckedAddress() async throws {
        let transport = PinningRecorder(ScriptedTransport(responses: [.json(["ok": true])]))
        let fetcher = SafeFetcher(
            transport: transport,
            addressResolver: FakeAddressResolver(table: ["pds.example.com": ["93.184.216.34"]])
        )
        _ = try await fetcher.get(
            try url("https://pds.example.com/.well-known/oauth-protected-resource"),
            expecting: .metadata
        )
        #expect(transport.connections == ["93.184.216.34"])
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
        #expect(transport.connections.isEmpty)
    }
}
