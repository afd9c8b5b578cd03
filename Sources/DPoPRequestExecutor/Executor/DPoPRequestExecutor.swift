public import Foundation
public import HTTPTransport
public import WireFormat

/// Sends requests with DPoP proofs: decorates a transport, keeps each server's nonce, and answers one nonce
/// challenge per request (RFC 9449 §4, §7, §8, §9).
///
/// Every attempt carries a new proof with a new `jti`. A request that is challenged again right after the
/// retry fails with ``DPoPError/repeatedNonceChallenge(status:)``; the executor never loops.
public struct DPoPRequestExecutor: Sendable {
    /// The transport that carries the requests.
    public let transport: any HTTPTransport
    /// The signer holding this session's key.
    public let signer: DPoPProofSigner
    /// The per-origin nonces; share one cache between the executors of a process.
    public let nonceCache: DPoPNonceCache
    private let now: @Sendable () -> Date

    /// Creates an executor.
    ///
    /// - Parameters:
    ///   - transport: the transport to decorate.
    ///   - key: the session's DPoP key.
    ///   - nonceCache: the nonce cache, shared across executors.
    ///   - random: the source of each proof's `jti`.
    ///   - now: the clock for `iat`.
    public init(
        transport: any HTTPTransport,
        key: DPoPKey,
        nonceCache: DPoPNonceCache = DPoPNonceCache(),
        random: any RandomSource = .system,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.transport = transport
        self.signer = DPoPProofSigner(key: key, random: random)
        self.nonceCache = nonceCache
        self.now = now
    }

    /// The same executor (key, nonce cache, clock) over another transport, such as one pinned to a checked address.
    public func over(_ transport: any HTTPTransport) -> DPoPRequestExecutor {
        DPoPRequestExecutor(transport: transport, signer: signer, nonceCache: nonceCache, now: now)
    }

    private init(
        transport: any HTTPTransport,
        signer: DPoPProofSigner,
        nonceCache: DPoPNonceCache,
        now: @escaping @Sendable () -> Date
    ) {
        self.transport = transport
        self.signer = signer
        self.nonceCache = nonceCache
        self.now = now
    }

    /// Sends a request with a DPoP proof, and with `Authorization: DPoP <token>` when an access token is given.
    ///
    /// - Parameters:
    ///   - request: the request; its body is sent unchanged on the retry unless `prepare` changes it.
    ///   - accessToken: the DPoP-bound access token for a resource server, or `nil` for an authorization server.
    ///   - prepare: called on each attempt's copy of the request before it is signed, such as to add a new client
    ///     assertion to every attempt (RFC 7523 §3: one `jti` per assertion).
    /// - Returns: the server's response, whatever its status, once no nonce challenge is left to answer.
    /// - Throws: ``DPoPError`` when the server repeats its nonce challenge or sends none; the transport's errors and
    ///   `prepare`'s.
    public func send(
        _ request: HTTPRequest,
        accessToken: String? = nil,
        preparingEachAttempt prepare: ((inout HTTPRequest) throws -> Void)? = nil
    ) async throws -> HTTPResponse {
        let htu = try DPoPTarget.htu(for: request.url)
        let origin = DPoPTarget.origin(ofHTU: htu)
        var wasChallenged = false
        while true {
            var attempt = request
            try prepare?(&attempt)
            let proof = try signer.proof(
                method: request.method,
                htu: htu,
                nonce: nonceCache.nonce(for: origin),
                accessToken: accessToken,
                issuedAt: now()
            )
            attempt.headers.replaceOrAdd(name: "DPoP", value: proof)
            if let accessToken {
                attempt.headers.replaceOrAdd(name: "Authorization", value: "DPoP \(accessToken)")
            }
            let response = try await transport.send(attempt)
            let newNonce = response.headers["DPoP-Nonce"].flatMap { DPoPNonceSyntax.isValid($0) ? $0 : nil }
            if let newNonce {
                nonceCache.update(newNonce, for: origin, at: now())
            }
            guard DPoPNonceChallenge.isChallenge(response) else { return response }
            guard !wasChallenged else { throw DPoPError.repeatedNonceChallenge(status: response.status) }
            guard newNonce != nil else { throw DPoPError.challengeWithoutNonce(status: response.status) }
            wasChallenged = true
        }
    }
}
