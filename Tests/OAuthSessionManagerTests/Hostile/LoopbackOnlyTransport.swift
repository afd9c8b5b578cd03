import Foundation
import HTTPTransport
import Synchronization

/// Passes requests to the loopback test server on to the real transport and refuses every other destination, so a
/// regression in the library's own destination checks can never send a packet off this machine.
///
/// Tests expect ``refusedURLs`` to stay empty: the library must refuse a hostile destination itself, first.
final class LoopbackOnlyTransport: HTTPTransport {
    /// The error thrown instead of contacting a host other than 127.0.0.1 or localhost.
    struct Refused: Error, CustomStringConvertible {
        /// The URL that would have left the machine.
        let url: URL

        var description: String { "the test transport refused to contact \(url)" }
    }

    private let base: any HTTPTransport
    private let refused = Mutex<[URL]>([])

    /// Wraps `base`.
    init(base: any HTTPTransport) {
        self.base = base
    }

    /// The URLs refused so far; empty when the library kept every request on loopback.
    var refusedURLs: [URL] { refused.withLock { $0 } }

    /// Sends the request if it goes to 127.0.0.1 or localhost, and throws ``Refused`` otherwise.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let host = request.url.host(), host == "127.0.0.1" || host == "localhost" else {
            refused.withLock { $0.append(request.url) }
            throw Refused(url: request.url)
        }
        return try await base.send(request)
    }
}
