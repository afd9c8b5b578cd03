import Foundation
import HTTPTransport
import Synchronization

/// The client metadata documents and JWK Sets the sandbox fetched itself, each kept ten minutes, as the reference
/// server caches them (@atproto/oauth-provider).
///
/// Only an `http://127.0.0.1:PORT/…` or `http://[::1]:PORT/…` URL that no configured document answers is fetched: a
/// developer serving a client metadata document (or its `jwks_uri`) from their machine. Each fetch is one `GET` with
/// a 30-second deadline (the client's own request timeout, so that a server on a busy machine is waited for as long as
/// the client waits for it), redirects never followed, and a body of at most 64 KiB; only a `200` answer of JSON is
/// taken.
/// Only a document that was read successfully is cached, so a failure, or a document refused, is fetched again at the
/// next request. A configured document is never cached: a change to ``SandboxConfiguration/clientMetadataDocuments``
/// counts from the next request.
final class ClientDocumentCache: Sendable {
    /// How long a fetched document is used before it is fetched again, in seconds.
    static let lifetime: TimeInterval = 600
    /// The deadline of one fetch, connecting included: atoauth's default request timeout.
    static let timeout: Duration = .seconds(30)
    /// The largest body taken, in bytes.
    static let maximumBytes = 64 * 1024

    private struct Entry {
        var document: Data
        var fetchedAt: Date
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// Creates an empty cache.
    init() {}

    /// The document at `address`, read by `read`: a fresh cached copy, or a new fetch, cached once `read` takes it.
    ///
    /// - Parameters:
    ///   - address: a loopback `http` URL (see ``ClientResolver/isLoopbackIP(_:)``).
    ///   - what: what the document is, for refusals (`the client metadata`, `the JWKS`).
    ///   - now: the sandbox's current time, which ages the cache.
    ///   - read: reads the document, or refuses it.
    /// - Returns: what `read` made of the document.
    /// - Throws: a refusal saying why the document could not be had, or `read`'s.
    func document<Value: Sendable>(
        at address: String,
        what: String,
        now: Date,
        read: (Data) throws(ClientResolver.Refusal) -> Value
    ) async throws(ClientResolver.Refusal) -> Value {
        let cached = entries.withLock { entries -> Data? in
            guard let entry = entries[address] else { return nil }
            let age = now.timeIntervalSince(entry.fetchedAt)
            guard age >= 0, age < Self.lifetime else {
                entries[address] = nil
                return nil
            }
            return entry.document
        }
        if let cached { return try read(cached) }
        let document = try await Self.fetch(address, what: what)
        let value = try read(document)
        entries.withLock { $0[address] = Entry(document: document, fetchedAt: now) }
        return value
    }

    /// Drops every cached document, so the next request fetches again; returns how many were dropped.
    @discardableResult
    func reset() -> Int {
        entries.withLock { entries in
            defer { entries = [:] }
            return entries.count
        }
    }

    /// One `GET` of `address` with the limits above.
    private static func fetch(_ address: String, what: String) async throws(ClientResolver.Refusal) -> Data {
        guard ClientResolver.isLoopbackIP(address), let url = URL(string: address) else {
            throw ClientResolver.Refusal(
                reason: "\(what) at \(address) is not on a loopback address the sandbox fetches"
            )
        }
        let configuration = AsyncHTTPClientTransport.Configuration(
            connectTimeout: timeout,
            totalTimeout: timeout,
            maximumResponseBytes: maximumBytes,
            userAgent: "atoauth-sandbox"
        )
        let response: HTTPResponse
        do {
            response = try await AsyncHTTPClientTransport.withTransport(configuration: configuration) { transport in
                try await transport.send(HTTPRequest(url: url, headers: ["Accept": "application/json"]))
            }
        } catch {
            throw ClientResolver.Refusal(reason: "\(what) at \(address) could not be fetched: \(error)")
        }
        guard response.status == 200 else {
            let redirect = (300..<400).contains(response.status) ? " (redirects are not followed)" : ""
            throw ClientResolver.Refusal(
                reason: "\(what) at \(address) was answered with HTTP \(response.status)\(redirect), not 200"
            )
        }
        let contentType = response.headers["Content-Type"]?.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let mediaType = contentType, mediaType == "application/json" || mediaType.hasSuffix("+json") else {
            throw ClientResolver.Refusal(
                reason: "\(what) at \(address) is served as \(contentType ?? "no content type"), not application/json"
            )
        }
        return response.body
    }
}
