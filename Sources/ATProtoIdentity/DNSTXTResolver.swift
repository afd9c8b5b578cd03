import CResolv
import Dispatch

/// Looks up DNS TXT records; the seam handle resolution goes through, so tests can use a fake DNS.
public protocol DNSTXTResolver: Sendable {
    /// Returns the TXT records of `name`, each record's strings joined; an empty array when the name does not
    /// exist or has no TXT record. Throws ``IdentityError/handleResolutionFailed(_:status:serverError:serverErrorDescription:)``
    /// when the look-up itself fails.
    func txtRecords(for name: String) async throws -> [String]
}

/// Queries the system's DNS servers with libresolv's thread-safe `res_nquery`, one resolver state per call.
public struct SystemDNSResolver: DNSTXTResolver {
    /// Seconds to wait for each try.
    public var timeoutSeconds: Int
    /// How many tries per server.
    public var tries: Int

    /// Creates the resolver; by default 2 tries of 3 seconds per configured server.
    public init(timeoutSeconds: Int = 3, tries: Int = 2) {
        self.timeoutSeconds = timeoutSeconds
        self.tries = tries
    }

    /// Sends the query on a Dispatch queue, since `res_nquery` blocks, and parses the answer.
    public func txtRecords(for name: String) async throws -> [String] {
        let timeout = Int32(clamping: timeoutSeconds)
        let tries = Int32(clamping: tries)
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try Self.query(name, timeout: timeout, tries: tries) })
            }
        }
    }

    private static func query(_ name: String, timeout: Int32, tries: Int32) throws -> [String] {
        var answer = [UInt8](repeating: 0, count: 65_535)
        var hostError: Int32 = 0
        let length = answer.withUnsafeMutableBufferPointer { buffer in
            cresolv_query(
                name,
                Int32(DNSTXTAnswer.internetClass),
                Int32(DNSTXTAnswer.txtType),
                buffer.baseAddress,
                Int32(buffer.count),
                timeout,
                tries,
                &hostError
            )
        }
        guard length >= 0 else {
            switch hostError {
            case 1, 4:  // HOST_NOT_FOUND (NXDOMAIN), NO_DATA: the name has no TXT record.
                return []
            case 2:
                throw IdentityError.handleResolutionFailed("the DNS query for \(name) timed out or the server failed")
            default:
                throw IdentityError.handleResolutionFailed(
                    "the DNS query for \(name) failed (resolver error \(hostError))"
                )
            }
        }
        do {
            return try DNSTXTAnswer.records(in: Array(answer.prefix(Int(min(length, 65_535)))))
        } catch {
            throw IdentityError.handleResolutionFailed("the DNS answer for \(name) is malformed: \(error.reason)")
        }
    }
}
