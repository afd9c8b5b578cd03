public import Foundation

extension ATClient {
    /// `com.atproto.server.getSession`: who the token belongs to.
    public func getSession() async throws -> SessionInfo {
        try await query(KnownMethods.getSession).decode()
    }

    /// `com.atproto.repo.createRecord`.
    public func createRecord(
        repo: String,
        collection: String,
        rkey: String? = nil,
        record: some Encodable & Sendable
    ) async throws -> RecordReference {
        try await procedure(
            KnownMethods.createRecord,
            json: CreateRecordInput(repo: repo, collection: collection, rkey: rkey, record: record)
        )
        .decode()
    }

    /// `com.atproto.repo.getRecord`.
    public func getRecord<Value: Decodable & Sendable>(
        repo: String,
        collection: String,
        rkey: String,
        as type: Value.Type = Value.self
    ) async throws -> RepoRecord<Value> {
        try await query(
            KnownMethods.getRecord,
            parameters: [("repo", repo), ("collection", collection), ("rkey", rkey)]
        )
        .decode()
    }

    /// `com.atproto.repo.listRecords`.
    public func listRecords<Value: Decodable & Sendable>(
        repo: String,
        collection: String,
        limit: Int? = nil,
        cursor: String? = nil,
        as type: Value.Type = Value.self
    ) async throws -> RecordPage<Value> {
        var parameters = [("repo", repo), ("collection", collection)]
        if let limit { parameters.append(("limit", String(limit))) }
        if let cursor { parameters.append(("cursor", cursor)) }
        return try await query(KnownMethods.listRecords, parameters: parameters).decode()
    }

    /// `com.atproto.repo.deleteRecord`.
    public func deleteRecord(repo: String, collection: String, rkey: String) async throws {
        _ = try await procedure(
            KnownMethods.deleteRecord,
            json: ["repo": repo, "collection": collection, "rkey": rkey]
        )
    }

    /// `com.atproto.repo.uploadBlob`: uploads raw bytes.
    public func uploadBlob(_ data: Data, mimeType: String) async throws -> BlobReference {
        struct Output: Decodable { var blob: BlobReference }
        let output: Output = try await procedure(
            KnownMethods.uploadBlob,
            input: data,
            contentType: mimeType
        )
        .decode()
        return output.blob
    }

    /// `app.bsky.actor.getProfile`, proxied to the AppView by default.
    public func getProfile(actor: String) async throws -> Profile {
        try await query(KnownMethods.getProfile, parameters: [("actor", actor)]).decode()
    }
}

private struct CreateRecordInput<Record: Encodable & Sendable>: Encodable, Sendable {
    var repo: String
    var collection: String
    var rkey: String?
    var record: Record
}
