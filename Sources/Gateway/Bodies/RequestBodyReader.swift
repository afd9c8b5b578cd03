import Foundation
import HTTPTransport
import HummingbirdCore
import NIOCore

/// Reads a request body, which a retry sends again from its start: whole before it is forwarded, in memory up to
/// ``GatewayConfiguration/memoryBodyLimit`` and else into a ``SpoolFile``; or, for a large body of known length,
/// into a spool file as it arrives while the forwarding sends it on; never more than the gateway's limit.
struct RequestBodyReader: Sendable {
    /// The largest body, in bytes.
    let limit: Int
    /// Where large bodies go.
    let spool: SpoolDirectory
    /// How long the client may send nothing; the connection is closed by then (the server's idle timeout), so a
    /// body that ends in an error after so long stalled rather than broke.
    let idleTimeout: Duration
    /// How long a body received whole may take (``GatewayConfiguration/requestDeadline``); the connection ends it
    /// with ``RequestDeadline/Exceeded`` then.
    let deadline: Duration

    /// A body read whole.
    struct Body: Sendable {
        /// The body to forward.
        var body: HTTPRequestBody
        /// The whole body when it is in memory, to look into.
        var bytes: Data?
        /// The file holding it, to discard once the request is answered.
        var file: SpoolFile?
        /// How many bytes it has.
        var length: Int
    }

    /// Reads `body`, which `Content-Length` said is `declaredLength` bytes (`nil` for a chunked body).
    ///
    /// - Throws: ``GatewayRefusal`` 413 when it grows past the limit, 408 when the client stopped sending, 400 when
    ///   it ended short of its length; ``SpoolFailure`` when the disk would not take it.
    func read(_ body: RequestBody, declaredLength: Int?) async throws -> Body {
        var memory = Data()
        var file: SpoolFile?
        var length = 0
        if let declaredLength, declaredLength > GatewayConfiguration.memoryBodyLimit {
            file = try spool.create()
        } else if let declaredLength {
            memory.reserveCapacity(declaredLength)
        }
        do {
            try await consume(body, declaredLength: declaredLength) { buffer, count in
                length = count
                if file == nil, count > GatewayConfiguration.memoryBodyLimit {
                    let spooled = try spool.create()
                    try memory.withUnsafeBytes { try spooled.append($0) }
                    memory = Data()
                    file = spooled
                }
                if let file {
                    try buffer.withUnsafeReadableBytes { try file.append($0) }
                } else {
                    memory.append(contentsOf: buffer.readableBytesView)
                }
            }
        } catch {
            file?.discard()
            throw error
        }
        if let file { return Body(body: file.body, bytes: nil, file: file, length: length) }
        return Body(body: .bytes(memory), bytes: memory, file: nil, length: length)
    }

    /// Receives `body`, of the `declaredLength` its `Content-Length` gave, into `file` as it arrives, so that the
    /// forwarding can send it on meanwhile (``SpoolFile/growingBody(length:)``); ends by finishing the file, or
    /// failing it with what ``read(_:declaredLength:)`` would throw, which the reads waiting on it then throw too.
    ///
    /// - Returns: how many bytes arrived, and the refusal when the body did not arrive whole.
    func receive(
        _ body: RequestBody,
        declaredLength: Int,
        into file: SpoolFile
    ) async -> (received: Int, failure: (any Error)?) {
        var received = 0
        do {
            try await consume(body, declaredLength: declaredLength) { buffer, count in
                received = count
                try buffer.withUnsafeReadableBytes { try file.append($0) }
            }
            file.finish()
            return (received, nil)
        } catch {
            file.fail(error)
            return (received, error)
        }
    }

    /// Passes each buffer of `body` to `take` with the count so far, checking the limit, then that the body ended at
    /// its declared length.
    private func consume(
        _ body: RequestBody,
        declaredLength: Int?,
        _ take: (ByteBuffer, Int) throws -> Void
    ) async throws {
        var count = 0
        var lastProgress = ContinuousClock.now
        do {
            for try await buffer in body {
                count += buffer.readableBytes
                guard count <= limit else { throw GatewayRefusal.payloadTooLarge(limit: limit) }
                try take(buffer, count)
                lastProgress = .now
            }
        } catch let error as GatewayRefusal {
            throw error
        } catch let error as SpoolFailure {
            throw error
        } catch is RequestDeadline.Exceeded {
            let expected = declaredLength.map { " of its \($0)" } ?? ""
            throw GatewayRefusal.requestTimeout(
                "The body did not arrive within \(deadline): \(count)\(expected) bytes came; the request was dropped."
            )
        } catch {
            throw stalledOrBroken(since: lastProgress, read: count, of: declaredLength)
        }
        if let declaredLength, count != declaredLength {
            throw stalledOrBroken(since: lastProgress, read: count, of: declaredLength)
        }
    }

    /// 408 when the body stopped arriving for about the idle timeout, else 400: the client closed the connection.
    private func stalledOrBroken(
        since lastProgress: ContinuousClock.Instant,
        read: Int,
        of length: Int?
    ) -> GatewayRefusal {
        let stalled = ContinuousClock.now - lastProgress >= idleTimeout * 0.9
        let expected = length.map { " of its \($0)" } ?? ""
        if stalled {
            return .requestTimeout(
                "The client sent nothing for \(idleTimeout) after \(read)\(expected) bytes of the body; the request "
                    + "was dropped."
            )
        }
        return .invalidRequest("The request body ended after \(read)\(expected) bytes; nothing was forwarded.")
    }
}
