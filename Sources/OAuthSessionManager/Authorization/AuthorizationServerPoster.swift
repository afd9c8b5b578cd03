package import DPoPRequestExecutor
package import Foundation
package import HTTPTransport
package import Logging
package import WireFormat

/// POSTs forms to an authorization server's endpoints with DPoP proofs, answering one nonce challenge per request
/// (RFC 9449 §8): the one way a sign-in, a refresh, a revocation and the doctor's probe reach those endpoints.
package struct AuthorizationServerPoster: Sendable {
    /// One attempt of a request (the first, or the retry after a nonce challenge): its answer, and the local times
    /// the request left and the answer arrived.
    package struct Attempt: Sendable {
        /// The server's answer.
        package var response: HTTPResponse
        /// When the request left.
        package var sentAt: Date
        /// When the answer arrived.
        package var receivedAt: Date
    }

    let fetcher: SafeFetcher
    let nonceCache: DPoPNonceCache
    let random: any RandomSource
    let now: @Sendable () -> Date
    let logger: Logger

    /// Creates a poster whose requests go through `fetcher`'s checked, pinned destinations.
    ///
    /// - Parameters:
    ///   - fetcher: checks each endpoint and pins the request to the checked address.
    ///   - nonceCache: the DPoP nonces per origin; a new, empty one sends the first request without a nonce.
    ///   - random: the source of each proof's `jti`.
    ///   - now: the clock for `iat` and the attempts' times.
    ///   - logger: where requests are logged; secrets are never logged.
    package init(
        fetcher: SafeFetcher,
        nonceCache: DPoPNonceCache = DPoPNonceCache(),
        random: any RandomSource = .system,
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "atoauth.oauth", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.fetcher = fetcher
        self.nonceCache = nonceCache
        self.random = random
        self.now = now
        self.logger = logger
    }

    /// POSTs a form to an authorization server endpoint with a DPoP proof (no `ath`), after checking where it goes.
    ///
    /// The request, and its retry after a nonce challenge (RFC 9449 §8), connect to the address that passed the
    /// check (atproto.com/specs/oauth, Security Concerns), so a DNS answer that changes in between cannot redirect
    /// them.
    ///
    /// A confidential client's request (`client` given) carries a new client assertion on each attempt, the nonce
    /// retry included (RFC 7523 §3).
    ///
    /// `observe` is told of each attempt's answer as it arrives, the nonce challenge included, and even when the
    /// attempts end in an error (a repeated challenge). Returns the last answer, whatever its status; throws
    /// ``SessionError``: `dpopFailed` for a nonce challenge repeated or without a nonce, `networkFailure` when no
    /// answer was read.
    func post(
        _ pairs: [(String, String)],
        to endpoint: URL,
        key: DPoPKey,
        purpose: String,
        client: ClientAuthenticator? = nil,
        observe: (@Sendable (Attempt) -> Void)? = nil
    ) async throws -> HTTPResponse {
        var transport: any HTTPTransport = try await fetcher.pinnedTransport(for: endpoint)
        if let observe { transport = ObservedTransport(base: transport, now: now, observe: observe) }
        let request = HTTPRequest(
            method: .post,
            url: endpoint,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: FormEncoding.body(pairs)
        )
        logger.debug("POST \(endpoint.absoluteString) (\(purpose))")
        do {
            let prepare: ((inout HTTPRequest) throws -> Void)? = client.map { client in
                { attempt in attempt.body = FormEncoding.body(pairs + (try client.parameters())) }
            }
            let executor = DPoPRequestExecutor(
                transport: transport,
                key: key,
                nonceCache: nonceCache,
                random: random,
                now: now
            )
            let response = try await executor.send(request, preparingEachAttempt: prepare)
            logger.debug("\(purpose): HTTP \(response.status)")
            return response
        } catch let error as DPoPError {
            throw SessionError.dpopFailed(error.description)
        } catch let error as SessionError {
            throw error
        } catch let error as TransportError {
            throw SessionError.networkFailure(purpose, error)
        } catch {
            // An error the transport does not describe: nothing says the request was not sent.
            throw SessionError.networkFailure(
                "The \(purpose) to \(endpoint.host ?? "the server") failed (\(error)) — check the network and try again",
                outcomeUnknown: true
            )
        }
    }
}

/// A transport that tells of each answer with the times its request left and it arrived.
private struct ObservedTransport: HTTPTransport {
    let base: any HTTPTransport
    let now: @Sendable () -> Date
    let observe: @Sendable (AuthorizationServerPoster.Attempt) -> Void

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let sentAt = now()
        let response = try await base.send(request)
        observe(AuthorizationServerPoster.Attempt(response: response, sentAt: sentAt, receivedAt: now()))
        return response
    }
}
