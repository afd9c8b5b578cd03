import Foundation

/// The PDS's repositories in memory: records by DID, collection and record key, and uploaded blobs by DID and CID.
///
/// Blobs are kept within a budget of bytes and of count, so a long-running sandbox cannot grow without bound: the
/// oldest upload is dropped first, and `com.atproto.sync.getBlob` then answers `BlobNotFound` for it.
actor RepositoryStore {
    /// One stored record.
    struct Record: Sendable {
        /// The record's CID.
        var cid: String
        /// The record as canonical JSON.
        var value: Data
    }

    /// What a write expects of the record it changes: its `swapRecord`, a compare-and-swap, so that two writers
    /// cannot undo each other unseen.
    enum Expectation: Sendable, Equatable {
        /// No `swapRecord`: whatever is there.
        case anything
        /// `swapRecord: null`: no record is there.
        case absent
        /// `swapRecord: <cid>`: the record is this one.
        case cid(String)

        /// Whether `current` is what the write expects.
        func allows(_ current: Record?) -> Bool {
            switch self {
            case .anything: true
            case .absent: current == nil
            case .cid(let cid): current?.cid == cid
            }
        }
    }

    /// What became of a write that expects something of the record it changes.
    enum SwapOutcome: Sendable, Equatable {
        /// Written (or deleted).
        case done
        /// The record was already exactly this one: nothing was written.
        case unchanged
        /// The record was not what the write expected; `current` is its CID, `nil` when there was none.
        case swapFailed(current: String?)
    }

    /// One uploaded blob.
    struct Blob: Sendable {
        /// The blob's CID.
        var cid: String
        /// Its media type, as uploaded.
        var mimeType: String
        /// Its bytes.
        var bytes: Data

        /// Its size in bytes.
        var size: Int { bytes.count }
    }

    /// Where a blob is kept: its uploader's DID and its CID.
    private struct BlobKey: Hashable, Sendable {
        var did: String
        var cid: String
    }

    /// The most blob bytes kept, across every DID: 256 MiB by default.
    let maximumBlobBytes: Int
    /// The most blobs kept, across every DID, so that many small blobs cannot grow the store either.
    let maximumBlobCount: Int

    private var records: [String: [String: [String: Record]]] = [:]
    private var blobs: [BlobKey: Blob] = [:]
    /// The kept blobs in upload order; those before `oldestBlob` were dropped and are removed now and then.
    private var blobArrivals: [BlobKey] = []
    private var oldestBlob = 0
    private var blobBytes = 0
    private var lastTIDMicros: UInt64 = 0

    /// Creates an empty store that keeps at most `maximumBlobBytes` bytes of blobs and `maximumBlobCount` blobs.
    init(maximumBlobBytes: Int = 256 << 20, maximumBlobCount: Int = 100_000) {
        self.maximumBlobBytes = max(0, maximumBlobBytes)
        self.maximumBlobCount = max(0, maximumBlobCount)
    }

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

    /// Stores a record in place of any, unless it is not what `expected` says (``SwapOutcome/swapFailed(current:)``);
    /// a record equal to the one there writes nothing, whatever was expected, as at the reference PDS.
    func put(
        did: String,
        collection: String,
        rkey: String,
        record: Record,
        expecting expected: Expectation
    ) -> SwapOutcome {
        let current = records[did]?[collection]?[rkey]
        if current?.cid == record.cid { return .unchanged }
        guard expected.allows(current) else { return .swapFailed(current: current?.cid) }
        records[did, default: [:]][collection, default: [:]][rkey] = record
        return .done
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

    /// Deletes a record, unless it is not what `expected` says; ``SwapOutcome/unchanged`` when there was none.
    func delete(did: String, collection: String, rkey: String, expecting expected: Expectation) -> SwapOutcome {
        let current = records[did]?[collection]?[rkey]
        guard expected.allows(current) else { return .swapFailed(current: current?.cid) }
        return records[did]?[collection]?.removeValue(forKey: rkey) != nil ? .done : .unchanged
    }

    /// Stores a blob under `did`, then drops the oldest blobs until the store is within its budget again.
    ///
    /// The same blob uploaded again keeps its place in the order and takes the new media type. A blob larger than
    /// the whole budget is answered for but not kept.
    ///
    /// - Returns: how many blobs were dropped, this one included when it was not kept.
    @discardableResult
    func addBlob(did: String, blob: Blob) -> Int {
        guard blob.size <= maximumBlobBytes, maximumBlobCount > 0 else { return 1 }
        let key = BlobKey(did: did, cid: blob.cid)
        if let previous = blobs.updateValue(blob, forKey: key) {
            blobBytes -= previous.size
        } else {
            blobArrivals.append(key)
        }
        blobBytes += blob.size
        var dropped = 0
        while blobBytes > maximumBlobBytes || blobs.count > maximumBlobCount, oldestBlob < blobArrivals.count {
            let oldest = blobArrivals[oldestBlob]
            oldestBlob += 1
            if let removed = blobs.removeValue(forKey: oldest) {
                blobBytes -= removed.size
                dropped += 1
            }
        }
        // Forget the dropped arrivals once they are most of the list, so it stays as long as the kept blobs.
        if oldestBlob > 1024, oldestBlob * 2 > blobArrivals.count {
            blobArrivals.removeFirst(oldestBlob)
            oldestBlob = 0
        }
        return dropped
    }

    /// The blob `did` uploaded with this CID, or `nil` when it never did or the blob was dropped.
    func blob(did: String, cid: String) -> Blob? {
        blobs[BlobKey(did: did, cid: cid)]
    }

    /// How many blobs and blob bytes are kept.
    var blobUsage: (count: Int, bytes: Int) { (blobs.count, blobBytes) }
}
