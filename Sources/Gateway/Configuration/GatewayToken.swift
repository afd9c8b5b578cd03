public import Foundation
public import WireFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The gateway's access token: made at start, written to a file only its owner can read, and required on every
/// request as `Authorization: Bearer <token>` (RFC 6750 §2.1).
public enum GatewayToken {
    /// A new token: 32 random bytes (256 bits) in base64url without padding, 43 characters.
    public static func generate(random: some RandomSource = .system) -> String {
        Base64URL.encode(random.bytes(count: 32))
    }

    /// Writes `token` and a line feed to `url`, replacing the file there at once: the new file is made beside it
    /// with `O_CREAT | O_EXCL | O_NOFOLLOW` and mode 0600, written, synced, then renamed over the old one, so no
    /// other user can read it at any moment and a symbolic link at `url` is replaced, never followed.
    ///
    /// - Throws: ``GatewayError`` naming the file and the reason, never the token; nothing is left behind.
    public static func save(_ token: String, to url: URL) throws {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        let suffix = Base64URL.encode(SystemRandomSource().bytes(count: 12))
        let temporary = directory + "/.gateway-token-\(suffix).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(0o600))
        guard descriptor >= 0 else { throw GatewayError.tokenFile(path, String(cString: strerror(errno))) }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            defer { close(descriptor) }
            guard fchmod(descriptor, mode_t(0o600)) == 0 else {
                throw GatewayError.tokenFile(path, String(cString: strerror(errno)))
            }
            try writeAll(Array((token + "\n").utf8), to: descriptor, path: path)
            guard fsync(descriptor) == 0 else { throw GatewayError.tokenFile(path, String(cString: strerror(errno))) }
        }
        guard rename(temporary, path) == 0 else { throw GatewayError.tokenFile(path, String(cString: strerror(errno))) }
        renamed = true
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw GatewayError.tokenFile(path, String(cString: strerror(errno)))
            }
            offset += count
        }
    }
}
