public import Failures
public import Foundation

/// A request body sent in chunks and readable again from its start, as a retry needs (a DPoP nonce challenge,
/// RFC 9449 §8; a refreshed token, RFC 6750 §3.1): bytes in memory, or a file read by position, which may still be
/// growing while it is read (a read then waits for the bytes).
public struct HTTPRequestBody: Sendable {
    /// The body's length in bytes, sent as `Content-Length`.
    public let length: Int
    /// Reads up to `count` bytes from `offset`; fewer only at the end.
    private let read: @Sendable (_ offset: Int, _ count: Int) async throws -> Data

    /// The size of the chunks the body is sent in.
    public static let chunkSize = 64 * 1024

    /// A body of `length` bytes that `read` gives by position, any number of times.
    public init(length: Int, read: @escaping @Sendable (_ offset: Int, _ count: Int) async throws -> Data) {
        self.length = max(0, length)
        self.read = read
    }

    /// A body held in memory.
    public static func bytes(_ data: Data) -> HTTPRequestBody {
        HTTPRequestBody(length: data.count) { offset, count in
            let start = data.startIndex + min(offset, data.count)
            return data.subdata(in: start..<min(start + count, data.endIndex))
        }
    }

    /// The chunks of the body from its start, each at most ``chunkSize`` bytes.
    public var chunks: Chunks { Chunks(body: self) }

    /// The whole body in memory; for a transport that cannot stream.
    public func collected() async throws -> Data {
        var data = Data(capacity: length)
        while data.count < length {
            let chunk = try await read(data.count, min(Self.chunkSize, length - data.count))
            guard !chunk.isEmpty else { throw ShortBody(expected: length, read: data.count) }
            data.append(chunk)
        }
        return data
    }

    /// The chunks of a body from its start.
    public struct Chunks: AsyncSequence, Sendable {
        let body: HTTPRequestBody

        /// Reads the next chunk by position.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let body: HTTPRequestBody
            var offset = 0

            /// The next chunk, or `nil` after the last.
            public mutating func next() async throws -> Data? {
                guard offset < body.length else { return nil }
                let chunk = try await body.read(offset, Swift.min(HTTPRequestBody.chunkSize, body.length - offset))
                guard !chunk.isEmpty else { throw ShortBody(expected: body.length, read: offset) }
                offset += chunk.count
                return chunk
            }
        }

        /// Reads from the body's start.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: body) }
    }

    /// The body ended before its stated length.
    public struct ShortBody: CategorizedError, Hashable {
        /// The length the body stated.
        public let expected: Int
        /// The bytes there were.
        public let read: Int

        /// What happened, in words.
        public var description: String { "the request body ended after \(read) of its \(expected) bytes" }

        /// A body that cannot be sent as given.
        public var category: FailureCategory { .usage }

        /// The caller's input: the body and the length it stated.
        public var origin: FailureOrigin { .input }
    }
}
