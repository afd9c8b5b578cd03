import DPoPRequestExecutor
import Foundation
import Keystore
import Logging
import OAuthMetadata

/// Keeps the servers' DPoP nonces in a small JSON file, so that a new process reuses a nonce the server still
/// accepts instead of spending a round trip on a `use_dpop_nonce` challenge (RFC 9449 §8, §9).
///
/// A nonce is not a secret: the file holds only origins, nonces and when they arrived. It is written (mode 0600,
/// by a rename) when a nonce changes, never read after start. A missing, unreadable or malformed file only costs
/// that round trip.
enum NonceFile {
    /// Nonces older than this are not restored: the reference server rotates every 60 s and accepts the previous
    /// one, so an older nonce would only draw a challenge.
    static let maximumAge: TimeInterval = 180

    /// The largest file read.
    static let maximumSize = 64 * 1024

    /// A cache restored from the file at `url` and writing back to it; a plain cache when `url` is `nil`.
    static func cache(at url: URL?, now: Date, logger: Logger) -> DPoPNonceCache {
        guard let url else { return DPoPNonceCache() }
        let fresh = read(url).filter { now.timeIntervalSince($0.value.receivedAt) < maximumAge }
        return DPoPNonceCache(entries: fresh) { entries in
            do {
                try write(entries, to: url)
            } catch {
                logger.debug("could not keep the DPoP nonces in \(url.path): \(error)")
            }
        }
    }

    /// The nonces in the file; none when it is missing, not a regular file (a FIFO is not waited on), too large or
    /// malformed.
    static func read(_ url: URL) -> [String: DPoPNonceCache.Entry] {
        guard let contents = try? RegularFile.read(url.path, limit: maximumSize, followingLinks: false),
            !contents.exceedsLimit,
            let entries = try? decoder.decode([String: DPoPNonceCache.Entry].self, from: contents.data)
        else { return [:] }
        return entries.filter { $0.key.count <= 300 && $0.value.nonce.utf8.count <= 1024 }
    }

    /// Replaces the file: a new file created with mode 0600 (never wider, whatever the umask, so no other process
    /// of the store finds it loose), then renamed over the old one.
    static func write(_ entries: [String: DPoPNonceCache.Entry], to url: URL) throws {
        let data = try encoder.encode(entries)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try file.write(contentsOf: data)
            try file.close()
            guard rename(temporary, url.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    private static var encoder: JSONEncoder { StoredJSON.encoder }
    private static var decoder: JSONDecoder { StoredJSON.decoder }
}
