/// `com.atproto.server.getSession` output.
public struct SessionInfo: Sendable, Hashable, Codable {
    /// The account's DID.
    public var did: String
    /// The account's handle.
    public var handle: String
    /// The account's email, when the scope allows it.
    public var email: String?
    /// Whether the account is active.
    public var active: Bool?
}

/// A record's address: `at://` URI and content hash.
public struct RecordReference: Sendable, Hashable, Codable {
    /// The `at://` URI.
    public var uri: String
    /// The record's CID.
    public var cid: String
}

/// A stored record with its decoded value.
public struct RepoRecord<Value: Decodable & Sendable>: Sendable, Decodable {
    /// The `at://` URI.
    public var uri: String
    /// The record's CID, when the server gives it.
    public var cid: String?
    /// The record.
    public var value: Value
}

/// One page of `com.atproto.repo.listRecords`.
public struct RecordPage<Value: Decodable & Sendable>: Sendable, Decodable {
    /// The records on this page.
    public var records: [RepoRecord<Value>]
    /// The cursor for the next page, if any.
    public var cursor: String?
}

/// `app.bsky.actor.getProfile` output (the fields every AppView returns).
public struct Profile: Sendable, Hashable, Codable {
    /// The DID.
    public var did: String
    /// The handle.
    public var handle: String
    /// The display name.
    public var displayName: String?
    /// The profile text.
    public var description: String?
}

/// A blob reference from `com.atproto.repo.uploadBlob`, to embed in a record.
public struct BlobReference: Sendable, Hashable, Codable {
    /// The CID link of the blob.
    public struct Link: Sendable, Hashable, Codable {
        /// The CID.
        public var link: String
        enum CodingKeys: String, CodingKey { case link = "$link" }
    }

    /// Always `blob`.
    public var type: String
    /// The CID.
    public var ref: Link
    /// The MIME type.
    public var mimeType: String
    /// The size in bytes.
    public var size: Int

    enum CodingKeys: String, CodingKey {
        case type = "$type"
        case ref
        case mimeType
        case size
    }
}
