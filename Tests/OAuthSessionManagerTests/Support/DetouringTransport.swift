import Foundation
import HTTPTransport
import Synchronization

/// Sends requests through a base transport, except the next one to a given path, which a detour sends instead: a
/// refresh that meets a slow server or a closed port while every request around it works.
final class DetouringTransport: HTTPTransport {
    /// Sends one request in place of the base transport.
    typealias Detour = @Sendable (HTTPRequest) async throws -> HTTPResponse

    private let base: any HTTPTransport
    private let path: String
    private let detour = Mutex<Detour?>(nil)

    /// Wraps `base`; requests whose URL path is `path` can be sent another way with ``detourNext(_:)``.
    init(_ base: any HTTPTransport, path: String) {
        self.base = base
        self.path = path
    }

    /// Sends the next request to the path with `detour`, once.
    func detourNext(_ detour: @escaping Detour) {
        self.detour.withLock { $0 = detour }
    }

    /// Sends the request with the pending detour when it goes to the path, and through the base transport otherwise.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.url.path == path, let pending = takeDetour() else { return try await base.send(request) }
        return try await pending(request)
    }

    private func takeDetour() -> Detour? {
        detour.withLock { pending in
            defer { pending = nil }
            return pending
        }
    }
}
