import Foundation
import Keystore
import PostgresStore

extension StoreFixture {
    /// Opens `count` stores on the database at once, each with its own pool and connections, as `count` processes
    /// on different machines would, and runs `body` with them.
    func withStores<T>(
        _ count: Int,
        _ body: ([PostgresStore]) async throws -> T
    ) async throws -> T {
        try await open(count, [], body)
    }

    private func open<T>(
        _ remaining: Int,
        _ opened: [PostgresStore],
        _ body: ([PostgresStore]) async throws -> T
    ) async throws -> T {
        guard remaining > 0 else { return try await body(opened) }
        return try await withStore { store in try await open(remaining - 1, opened + [store], body) }
    }
}
