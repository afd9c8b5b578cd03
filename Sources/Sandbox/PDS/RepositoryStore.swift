import Foundation

/// The PDS's repositories in memory: records by DID, collection and record key, and uploaded blobs.
actor RepositoryStore {
    /// One stored record.
    struct Record: Sendable {
        /// The record's CID.
        var cid: String
        /// The record as canonical JSON.
        var value: Data
    }

    /// One uploaded blob.
    struct Blob: Sendable {
        /// The blob's CID.
        var cid: String
        /// Its media type, as uploaded.
        var mimeType: String
        /// Its size in bytes.
        var size: Int
    }

    private var records: [String: [String: [String: Record]]] = [:]
    private var blobs: [String: [String: Blob]] = [:]
    private var lastTIDMicros: UInt64 = 0

    /// A new TID record key, always later than the previous one even when the clock stands still.
    func nextRecordKey(now: Date) -> String {
        let micros = UInt64(max(0, now.timeIntervalSince1970 * 1_000_000))
        lastTIDMicros = max(micros, lastTIDMicros + 1)
        return XRPCSyntax.tid(micros: lastTIDMicros, clockID: 0)
    }

    /// Stores a record; `false` when the key is taken.
    func create(did: String, collection: String, rkey: String, record: Record) -> Bool {
        guard records[did]?[collection]?[rkey] == nil else { return false }
        records[did, default: [:]][collection, default: [:]][rkey] = record
        return true
    }

    /// One record, or `nil`.
    func record(did: String, collection: String, rkey: String) -> Record? {
        records[did]?[collection]?[rkey]
    }

    /// A page of a collection, ordered by record key (descending unless `reverse`), after `cursor`.
    func list(
        did: String,
        collection: String,
        limit: Int,
        cursor: String?,
        reverse: Bool
    ) -> (records: [(rkey: String, record: Record)], cursor: String?) {
        let all = records[did]?[collection] ?? [:]
        var keys = all.keys.sorted()
        if !reverse { keys.reverse() }
        if let cursor {
            keys = keys.filter { reverse ? $0 > cursor : $0 < cursor }
        }
        let page = Array(keys.prefix(limit))
        let next = keys.count > limit ? page.last : nil
        return (page.compactMap { key in all[key].map { (key, $0) } }, next)
    }

    /// Deletes a record; `false` when there was none.
    @discardableResult
    func delete(did: String, collection: String, rkey: String) -> Bool {
        records[did]?[collection]?.removeValue(forKey: rkey) != nil
    }

    /// Stores a blob's description (the bytes themselves are not kept).
    func addBlob(did: String, blob: Blob) {
        blobs[did, default: [:]][blob.cid] = blob
    }
}
