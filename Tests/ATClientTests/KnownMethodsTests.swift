import ATProtoSyntax
import Testing

@testable import ATClient

@Suite("The typed calls' NSIDs")
struct KnownMethodsTests {
    @Test("every constant is a valid NSID with the expected text")
    func constants() {
        let all = [
            KnownMethods.getProfile, KnownMethods.createRecord, KnownMethods.deleteRecord, KnownMethods.getRecord,
            KnownMethods.listRecords, KnownMethods.uploadBlob, KnownMethods.getSession,
        ]
        #expect(
            all.map(\.rawValue) == [
                "app.bsky.actor.getProfile", "com.atproto.repo.createRecord", "com.atproto.repo.deleteRecord",
                "com.atproto.repo.getRecord", "com.atproto.repo.listRecords", "com.atproto.repo.uploadBlob",
                "com.atproto.server.getSession",
            ]
        )
    }
}
