import ATProtoIdentity
import Failures
import HTTPTransport
import Testing

@Suite("The system DNS resolver answers offline without crashing")
struct SystemDNSResolverTests {
    /// The time limit only stops a hang (one 1 s try ends in seconds); it is not a speed bound.
    @Test("a real DNS TXT query for a name that cannot exist returns nothing or a clean error", .timeLimit(.minutes(2)))
    func impossibleTXT() async throws {
        do {
            let records = try await SystemDNSResolver(timeoutSeconds: 1, tries: 1)
                .txtRecords(for: "_atproto.no-such-handle.invalid")
            #expect(records.isEmpty)
        } catch let error as FetchError {
            #expect(error.category == .failed)
        }
    }
}
