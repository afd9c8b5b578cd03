import Foundation
import Keystore
import OAuthMetadata
import Testing

@Suite("The client key set: next, current, retiring")
struct ClientKeySetTests {
    @Test("The first key is current at once; a later one is next until its wait has passed, then current")
    func rotation() async throws {
        let set = ClientKeySet(keystore: InMemoryKeystore())
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let first = ClientKey()
        let second = ClientKey()
        #expect(try await set.add(first, wait: 600, now: start).state == .current)
        #expect(try await set.add(second, wait: 600, now: start).state == .next)
        #expect(try await set.signingKey(now: start.addingTimeInterval(599)).keyID == first.keyID)
        #expect(try await set.signingKey(now: start.addingTimeInterval(600)).keyID == second.keyID)
        let states = try await set.records(now: start.addingTimeInterval(601)).map(\.state)
        #expect(states == [.retiring, .current])
        #expect(try await set.key(first.keyID)?.publicJWK == first.publicJWK)
    }

    @Test("A key added beside the current one (an operator's key file) never displaces it, however long it waits")
    func addedBeside() async throws {
        let set = ClientKeySet(keystore: InMemoryKeystore())
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let current = ClientKey()
        let file = ClientKey()
        let next = ClientKey()
        _ = try await set.add(current, wait: 600, now: start)
        #expect(try await set.addBeside(file, now: start).state == .retiring)
        let later = start.addingTimeInterval(86_400)
        #expect(try await set.signingKey(now: later).keyID == current.keyID)
        #expect(try await set.records(now: later).map(\.state) == [.current, .retiring])
        #expect(try await set.key(file.keyID)?.publicJWK == file.publicJWK, "it signs for the sessions that name it")

        // Rotation still goes through a next key and its wait.
        _ = try await set.add(next, wait: 600, now: later)
        #expect(try await set.signingKey(now: later.addingTimeInterval(599)).keyID == current.keyID)
        #expect(try await set.signingKey(now: later.addingTimeInterval(600)).keyID == next.keyID)
        #expect(try await set.records(now: later).map(\.state) == [.retiring, .retiring, .current])

        // In an empty set such a key is the first key, current at once.
        let empty = ClientKeySet(keystore: InMemoryKeystore())
        #expect(try await empty.addBeside(file, now: start).state == .current)
        #expect(try await empty.signingKey(now: start).keyID == file.keyID)
    }

    @Test("A kid added twice is refused; a removed key is gone, sealed entry and record")
    func addAndRemove() async throws {
        let store = InMemoryKeystore()
        let set = ClientKeySet(keystore: store)
        let key = ClientKey()
        _ = try await set.add(key, wait: 0, now: Date())
        await #expect(throws: MetadataError.self) { try await set.add(key, wait: 0, now: Date()) }
        #expect(try await set.remove(key.keyID))
        #expect(try await set.key(key.keyID) == nil)
        #expect(try await set.records(now: Date()).isEmpty)
        #expect(try await !set.remove(key.keyID))
    }

    @Test("An empty set has no signing key, and says how to make one")
    func empty() async throws {
        let set = ClientKeySet(keystore: InMemoryKeystore())
        await #expect(throws: MetadataError.self) { try await set.signingKey(now: Date()) }
    }
}
