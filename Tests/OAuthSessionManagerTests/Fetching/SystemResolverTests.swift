import ATProtoIdentity
import Failures
import Foundation
import HTTPTransport
import Testing

@Suite("The system resolvers answer offline without crashing")
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

    @Test("a real DNS TXT query for a name that cannot exist returns nothing or a clean error, quickly")
    func impossibleTXT() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let records = try await SystemDNSResolver(timeoutSeconds: 1, tries: 1)
                .txtRecords(for: "_atproto.no-such-handle.invalid")
            #expect(records.isEmpty)
        } catch let error as FetchError {
            #expect(error.category == .failed)
        }
        // One 1 s try takes seconds at most; the bound only rules out a hang, with room for a machine kept busy by
        // the parallel suite.
        #expect(clock.now - start < .seconds(120))
    }
}
