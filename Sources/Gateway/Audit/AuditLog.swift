import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The gateway's audit trail (`--audit-log`): one JSON line per request it answered, appended to a file made 0600
/// and opened with `O_APPEND`, so lines from before a restart stay and each line is written whole.
///
/// A line holds the time, the token's name, the account's DID, the method, the NSID (or path), the status, the
/// error name, the bytes in and out and the milliseconds; never a token, a body, a query or a header's value.
final class AuditLog: Sendable {
    /// The file's path.
    let path: String
    private let descriptor: Int32

    /// Opens `url` for appending, making it 0600 when it is new; a symbolic link there is not followed.
    ///
    /// - Throws: ``GatewayError/auditLog(_:_:)`` naming the file and the reason.
    init(_ url: URL) throws {
        path = url.path
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode_t(0o600))
        guard descriptor >= 0 else {
            // O_NOFOLLOW refuses a link with ELOOP, whose system text ("Too many levels of symbolic links") misleads.
            let reason =
                errno == ELOOP
                ? "it is a symbolic link, which the audit log never follows" : String(cString: strerror(errno))
            throw GatewayError.auditLog(path, reason)
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// One answered request.
    struct Line: Encodable {
        var time: String
        var token: String?
        var account: String?
        var method: String
        var nsid: String?
        var path: String?
        var status: Int
        var error: String?
        var bytesIn: Int
        var bytesOut: Int
        var ms: Double
    }

    /// Appends `line` with one `write`; a failure is returned for the gateway's log, never thrown at the request.
    func append(_ line: Line) -> Int32? {
        guard var data = try? Self.encoder.encode(line) else { return EINVAL }
        data.append(0x0A)
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        return written == data.count ? nil : errno
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `2026-11-28T10:30:07.123Z`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// The bytes of an answer's body, counted as they are written.
final class ByteCount: Sendable {
    private let count = Atomic<Int>(0)

    func add(_ bytes: Int) { count.wrappingAdd(bytes, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
}
