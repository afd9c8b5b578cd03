import Crypto
import Foundation

/// Content identifiers shaped like CIDv1 (SHA-256, multibase base32): stable hashes of records and blobs.
///
/// Blobs get a real CID of their bytes (codec `raw`). Records are hashed as sorted-key JSON rather than DAG-CBOR,
/// so their CIDs are well-formed and stable but not the ones a real PDS would compute.
enum ContentID {
    /// The CID of a blob's bytes (codec `raw`, 0x55), such as `bafkrei…`.
    static func blob(_ bytes: Data) -> String {
        make(codec: 0x55, digest: SHA256.hash(data: bytes))
    }

    /// The CID of a record's canonical JSON bytes (codec `dag-cbor`, 0x71), such as `bafyrei…`.
    static func record(_ canonicalJSON: Data) -> String {
        make(codec: 0x71, digest: SHA256.hash(data: canonicalJSON))
    }

    private static func make(codec: UInt8, digest: SHA256.Digest) -> String {
        // CIDv1, the codec, then a multihash: sha2-256 (0x12), 32 bytes (0x20), the digest.
        let bytes: [UInt8] = [0x01, codec, 0x12, 0x20] + Array(digest)
        return "b" + Base32.encode(bytes)
    }
}
