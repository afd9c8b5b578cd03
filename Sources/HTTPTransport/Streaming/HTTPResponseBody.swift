public import Failures
public import Foundation

/// A response body read as it arrives, once: the chunks of a streamed answer, or bytes already read.
public struct HTTPResponseBody: AsyncSequence, Sendable {
    private let makeNext: @Sendable () -> (() async throws -> Data?)

    /// A body whose chunks `makeNext` reads; it is called once per iteration and its closure gives `nil` at the end.
    public init(_ makeNext: @escaping @Sendable () -> (() async throws -> Data?)) {
        self.makeNext = makeNext
    }

    /// A body already read.
    public static func whole(_ data: Data) -> HTTPResponseBody {
        HTTPResponseBody {
            var given = data.isEmpty
            return {
                guard !given else { return nil }
                given = true
                return data
            }
        }
    }

    /// Gives the chunks in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let nextChunk: () async throws -> Data?

        /// The next chunk, or `nil` after the last.
        public mutating func next() async throws -> Data? { try await nextChunk() }
    }

    /// Reads the chunks; a body is read once.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(nextChunk: makeNext()) }

    /// Reads the whole body, failing with ``TooLarge`` once it passes `limit` bytes.
    public func collect(upTo limit: Int) async throws -> Data {
        var data = Data()
        for try await chunk in self {
            guard chunk.count <= limit - data.count else { throw TooLarge(limit: limit) }
            data.append(chunk)
        }
        return data
    }

    /// Reads the body ahead up to `limit` bytes: the whole body when it is no longer (else `nil`), and a body that
    /// gives the same chunks from the start, for a caller that looks into small answers and passes large ones on.
    public func peek(upTo limit: Int) async throws -> (whole: Data?, body: HTTPResponseBody) {
        var iterator = makeAsyncIterator()
        var read: [Data] = []
        var count = 0
        while count <= limit, let chunk = try await iterator.next() {
            read.append(chunk)
            count += chunk.count
        }
        guard count > limit else {
            let whole = read.reduce(into: Data(capacity: count)) { $0.append($1) }
            return (whole, .whole(whole))
        }
        let rest = RemainingChunks(iterator)
        let alreadyRead = read
        let replay = HTTPResponseBody {
            var pending = alreadyRead
            return {
                if !pending.isEmpty { return pending.removeFirst() }
                return try await rest.next()
            }
        }
        return (nil, replay)
    }

    /// The body was larger than the caller would read.
    public struct TooLarge: CategorizedError, Hashable {
        /// The most bytes the caller would read.
        public let limit: Int

        /// Creates the error for a body larger than `limit` bytes.
        public init(limit: Int) { self.limit = limit }

        /// What happened, in words.
        public var description: String { "the response body is larger than \(limit) bytes" }

        /// The answer could not be read whole; trying again may not help, a larger limit may.
        public var category: FailureCategory { .failed }

        /// The server, which sent more than the caller would read.
        public var origin: FailureOrigin { .upstream }
    }
}

/// The rest of a body read ahead, for the one body that goes on reading it: a body is read once, by one task at a
/// time, so the iterator is never used concurrently.
private final class RemainingChunks: @unchecked Sendable {
    private var iterator: HTTPResponseBody.AsyncIterator

    init(_ iterator: HTTPResponseBody.AsyncIterator) { self.iterator = iterator }

    func next() async throws -> Data? { try await iterator.next() }
}
