import ATProtoIdentity
import Failures
import HTTPTransport
import Testing

@Suite("The system DNS resolver answers offline without crashing")
struct SystemDNSResolverTests {
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
