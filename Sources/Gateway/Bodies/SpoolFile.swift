import Foundation
import HTTPTransport
import Synchronization
import WireFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A request body too large to hold in memory, on disk while its request is forwarded: made 0600 and unlinked at
/// once, so that it leaves no name behind even if the process dies, and read by position (`pread`) as often as
/// the forwarding needs it (a nonce challenge or a refresh sends it again, RFC 9449 §8, RFC 6750 §3.1).
///
/// It may be read while it is still being written (``growingBody(length:)``): a read past what has arrived waits for
/// more, for the end (``finish()``), or for the writer's failure (``fail(_:)``), which it throws.
final class SpoolFile: Sendable {
    private struct State {
        /// The open file, `nil` once closed.
        var descriptor: Int32?
        /// The bytes written so far.
        var length: Int
        /// Whether every byte has been written.
        var isComplete = false
        /// Why the writing stopped short, when it did.
        var failure: (any Error)?
        /// Reads waiting for more bytes, by their number.
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0

        /// Whether a read that found nothing new has no reason to wait.
        var hasNews: Bool { isComplete || failure != nil || descriptor == nil }
    }

    private let state: Mutex<State>

    private init(descriptor: Int32) {
        state = Mutex(State(descriptor: descriptor, length: 0))
    }

    deinit {
        state.withLock { state in
            if let descriptor = state.descriptor { close(descriptor) }
        }
    }

    /// How many reads wait for bytes not yet written; tests wait for a reader to be waiting rather than for a while.
    var waitingReads: Int { state.withLock { $0.waiters.count } }

    /// Makes an empty file in `directory` and unlinks it.
    ///
    /// - Throws: ``SpoolFailure`` with the system's reason.
    static func create(in directory: String) throws -> SpoolFile {
        let name = "body-" + Base64URL.encode(SystemRandomSource().bytes(count: 16)) + ".spool"
        let path = directory + "/" + name
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(0o600))
        guard descriptor >= 0 else { throw SpoolFailure(action: "create", code: errno) }
        unlink(path)
        return SpoolFile(descriptor: descriptor)
    }

    /// The bytes written so far.
    var length: Int { state.withLock { $0.length } }

    /// Appends `bytes` at the end.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        try state.withLock { state in
            guard let descriptor = state.descriptor else { throw SpoolFailure(action: "write", code: EBADF) }
            var offset = 0
            while offset < bytes.count {
                let count = pwrite(
                    descriptor,
                    bytes.baseAddress?.advanced(by: offset),
                    bytes.count - offset,
                    off_t(state.length + offset)
                )
                if count < 0 {
                    if errno == EINTR { continue }
                    throw SpoolFailure(action: "write", code: errno)
                }
                offset += count
            }
            state.length += bytes.count
        }
        wakeReaders()
    }

    /// Says that every byte has been written: reads at the end now find it.
    func finish() {
        state.withLock { $0.isComplete = true }
        wakeReaders()
    }

    /// Says that the writing stopped short because of `error`, which reads of missing bytes now throw.
    func fail(_ error: any Error) {
        state.withLock { $0.failure = error }
        wakeReaders()
    }

    private func wakeReaders() {
        let waiters = state.withLock { state in
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Up to `count` bytes from `offset`, waiting while the file is still being written and has none there yet;
    /// fewer only at the end, none past it.
    ///
    /// - Throws: the writer's failure when the bytes will never come; `CancellationError` when the reading task is
    ///   cancelled while it waits; ``SpoolFailure`` from the file system.
    func readWaiting(offset: Int, count: Int) async throws -> Data {
        while true {
            let (known, isFinal, failure) = state.withLock { ($0.length, $0.hasNews, $0.failure) }
            if known > offset || count == 0 { return try read(offset: offset, count: count) }
            if let failure { throw failure }
            if isFinal { return try read(offset: offset, count: count) }
            try await waitForMore(than: known)
        }
    }

    /// Returns once more than `known` bytes are written, or the writing ended, or the task is cancelled.
    private func waitForMore(than known: Int) async throws {
        let number = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = state.withLock { state in
                    // Checked under the lock, so a cancellation either is seen here or finds the waiter below.
                    guard state.length <= known, !state.hasNews, !Task.isCancelled else { return false }
                    state.waiters[number] = continuation
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: number) }?.resume()
        }
        try Task.checkCancellation()
    }

    /// Up to `count` bytes from `offset`; fewer only at the end, none past it.
    func read(offset: Int, count: Int) throws -> Data {
        try state.withLock { state in
            guard let descriptor = state.descriptor else { throw SpoolFailure(action: "read", code: EBADF) }
            var data = Data(count: max(0, min(count, state.length - offset)))
            var filled = 0
            while filled < data.count {
                let wanted = data.count - filled
                let got = data.withUnsafeMutableBytes { buffer in
                    pread(descriptor, buffer.baseAddress?.advanced(by: filled), wanted, off_t(offset + filled))
                }
                if got < 0 {
                    if errno == EINTR { continue }
                    throw SpoolFailure(action: "read", code: errno)
                }
                if got == 0 { break }
                filled += got
            }
            data.count = filled
            return data
        }
    }

    /// The body as the forwarding reads it: by position, from its start on every attempt.
    var body: HTTPRequestBody {
        HTTPRequestBody(length: length) { [self] offset, count in try read(offset: offset, count: count) }
    }

    /// The body of `length` bytes while it is still arriving: each read waits for its bytes, so the forwarding sends
    /// them on as they come, and a retry reads again from the start.
    func growingBody(length: Int) -> HTTPRequestBody {
        HTTPRequestBody(length: length) { [self] offset, count in try await readWaiting(offset: offset, count: count) }
    }

    /// Closes the file, which frees its space; reads after this fail.
    func discard() {
        let descriptor = state.withLock { state in
            defer { state.descriptor = nil }
            return state.descriptor
        }
        if let descriptor { close(descriptor) }
        wakeReaders()
    }
}

/// A spool file the system would not create, write or read.
struct SpoolFailure: Error, CustomStringConvertible {
    /// `create`, `write` or `read`.
    let action: String
    /// The `errno`.
    let code: Int32

    var description: String {
        "the request body could not be spooled to disk (\(action): \(String(cString: strerror(code))))"
    }
}
