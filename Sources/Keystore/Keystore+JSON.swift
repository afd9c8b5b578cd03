package import Foundation

extension Keystore {
    /// The entry `name` decoded from JSON, or `nil` when there is none; `unreadable` is thrown when its bytes are not a
    /// `Value`, so a damaged entry is never taken for a missing one.
    package func loadDecoded<Value: Decodable>(
        _ type: Value.Type,
        from name: String,
        decoder: JSONDecoder,
        unreadable: @autoclosure () -> any Error
    ) async throws -> Value? {
        guard let data = try await load(name) else { return nil }
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw unreadable()
        }
    }
}
