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
        try await answeringNonceChallenges(request, accessToken: accessToken, prepare: prepare) { attempt in
            let response = try await transport.send(attempt)
            return (response, response.headers, DPoPNonceChallenge.isChallenge(response), response.status)
        }
    }

    /// Streams a request as ``send(_:accessToken:preparingEachAttempt:)`` sends one: `body` goes in chunks, again
    /// from its start after a nonce challenge, and the answer returns at its head.
    ///
    /// A resource server's 401 challenge is told by its headers alone (RFC 9449 §9); an authorization server's 400
    /// is read ahead, up to 64 KiB, to find its `error`, and a larger one is returned as it comes.
    public func stream(
        _ request: HTTPRequest,
        body: HTTPRequestBody?,
        accessToken: String? = nil
    ) async throws -> HTTPStreamedResponse {
        try await answeringNonceChallenges(request, accessToken: accessToken, prepare: nil) { attempt in
            var response = try await transport.stream(attempt, body: body)
            guard [400, 401].contains(response.status) else {
                return (response, response.headers, false, response.status)
            }
            if response.status == 401 {
                let head = HTTPResponse(status: 401, headers: response.headers, body: Data())
                return (response, response.headers, DPoPNonceChallenge.isChallenge(head), 401)
            }
            let (whole, replay) = try await response.body.peek(upTo: 64 * 1024)
            response.body = replay
            let isChallenge =
                whole.map {
                    DPoPNonceChallenge.isChallenge(
                        HTTPResponse(status: response.status, headers: response.headers, body: $0)
                    )
                } ?? false
            return (response, response.headers, isChallenge, response.status)
        }
    }

    /// Sends attempts with fresh proofs, keeping the nonces answers bring, until one is not a nonce challenge; at
    /// most one challenge is answered.
    private func answeringNonceChallenges<Answer>(
        _ request: HTTPRequest,
        accessToken: String?,
        prepare: ((inout HTTPRequest) throws -> Void)?,
        _ send: (HTTPRequest) async throws -> (Answer, headers: HTTPHeaders, isChallenge: Bool, status: Int)
    ) async throws -> Answer {
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
            let (answer, headers, isChallenge, status) = try await send(attempt)
            let newNonce = headers["DPoP-Nonce"].flatMap { DPoPNonceSyntax.isValid($0) ? $0 : nil }
            if let newNonce {
                nonceCache.update(newNonce, for: origin, at: now())
            }
            guard isChallenge else { return answer }
            guard !wasChallenged else { throw DPoPError.repeatedNonceChallenge(status: status) }
            guard newNonce != nil else { throw DPoPError.challengeWithoutNonce(status: status) }
            nonceCache.noteChallengeAnswered()
            wasChallenged = true
        }
    }
}
