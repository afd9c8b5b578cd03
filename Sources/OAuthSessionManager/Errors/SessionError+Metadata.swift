import OAuthMetadata

extension SessionError {
    /// Runs `body`, a step of a sign-in or refresh, throwing a `MetadataError` it throws as the `SessionError` of
    /// the same code.
    static func carrying<Value>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Value
    ) async throws -> Value {
        do {
            return try await body()
        } catch let error as MetadataError {
            throw SessionError(error)
        }
    }
}
