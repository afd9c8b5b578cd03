import Foundation
import HTTPTransport
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

/// Runs `body` with `count` transports of their own, as `count` machines have, with wide time limits: the calls of
/// every instance and the sandbox share this process's two cores.
func withTransports<T>(
    _ count: Int,
    _ opened: [AsyncHTTPClientTransport] = [],
    _ body: ([AsyncHTTPClientTransport]) async throws -> T
) async throws -> T {
    guard opened.count < count else { return try await body(opened) }
    let patient = AsyncHTTPClientTransport.Configuration(connectTimeout: .seconds(120), totalTimeout: .seconds(240))
    return try await AsyncHTTPClientTransport.withTransport(configuration: patient) { transport in
        try await withTransports(count, opened + [transport], body)
    }
}
