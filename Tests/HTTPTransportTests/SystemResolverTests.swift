import Failures
import HTTPTransport
import Testing

@Suite("The system address resolver answers offline without crashing")
struct SystemResolverTests {
    @Test("getaddrinfo resolves localhost to loopback addresses only")
    func localhost() async throws {
        let addresses = try await SystemAddressResolver().addresses(for: "localhost")
        #expect(!addresses.isEmpty)
        #expect(addresses.allSatisfy { $0.category == .loopback })
    }

    @Test("getaddrinfo fails cleanly for a name that cannot exist")
    func impossibleName() async throws {
        let error = await #expect(throws: FetchError.self) {
            try await SystemAddressResolver().addresses(for: "no-such-host.invalid")
        }
        #expect(error?.category == .failed)
    }
}
