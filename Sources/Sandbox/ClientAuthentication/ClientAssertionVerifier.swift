import Crypto
import Foundation

/// Checks a client assertion as an authorization server must (RFC 7523 §3; RFC 7521 §4.2; atproto.com/specs/oauth,
/// Client Authentication): a compact JWS signed with ES256 by a key of the client's JWKS named by `kid`, whose claims
/// say that the client wrote it for this server, now.
///
/// Like ``DPoPProofVerifier`` it is the sandbox's own code, written apart from the client's signer. Replay (`jti`)
/// needs server state, so the caller remembers the `jti` of each verified assertion until ``Verified/expiresAt``.
struct ClientAssertionVerifier: Sendable {
    /// The `client_assertion_type` of a JWT client assertion (RFC 7523 §2.2).
    static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// Why an assertion was refused: the failed check, in words.
    struct Failure: Error, Sendable {
        /// The failed check, such as `aud is not this authorization server's issuer`.
        var reason: String
    }

    /// An assertion that passed every check.
    struct Verified: Sendable {
        /// The key that signed it.
        var key: ClientKeyBinding
        /// Its `jti`, to remember until ``expiresAt``.
        var jti: String
        /// Its `exp`.
        var expiresAt: Date
    }

    /// How far in the future `iat` (and `nbf`) may be: none, as the reference server allows none.
    var maximumSkew: TimeInterval = 0
    /// How long ago `iat` may be: a minute, as the reference server allows (`maxTokenAge`).
    var maximumAge: TimeInterval = 60
    /// How long after `iat` `exp` may be: an assertion is for one request (the reference client makes them valid
    /// for a minute).
    var maximumLifetime: TimeInterval = 300

    /// Verifies an assertion.
    ///
    /// - Parameters:
    ///   - assertion: the `client_assertion` parameter.
    ///   - clientID: the client it must be from: `iss` and `sub` (RFC 7523 §3, items 1 and 2).
    ///   - issuer: this authorization server's issuer, which `aud` must be or contain (item 3).
    ///   - keys: the client's current keys; the header's `kid` must name one, which must verify the signature.
    ///   - now: the current time.
    /// - Returns: the key that signed it, its `jti` and its expiry.
    /// - Throws: ``Failure`` naming the first failed check.
    func verify(
        _ assertion: String,
        clientID: String,
        issuer: String,
        keys: ClientKeySet,
        now: Date
    ) throws(Failure) -> Verified {
        guard let jws = CompactJWS(assertion) else { throw Failure(reason: "is not a compact JWS with three segments") }
        guard let header = jws.header else { throw Failure(reason: "header is not a base64url JSON object") }
        // No extension is understood here, so a header that marks any as critical is refused (RFC 7515 §4.1.11).
        guard header["crit"] == nil else { throw Failure(reason: "names critical header extensions (crit)") }
        guard header["alg"] as? String == "ES256" else {
            throw Failure(reason: "alg must be ES256, not \(String(describing: header["alg"] ?? "missing"))")
        }
        let known = keys.keyIDs.joined(separator: ", ")
        guard let keyID = header["kid"] as? String, !keyID.isEmpty else {
            throw Failure(reason: "has no kid in its header (the client's JWKS has \(known))")
        }
        guard let key = keys.keys[keyID], let publicKey = key.publicKey else {
            throw Failure(reason: "names kid \(keyID), which is not in the client's JWKS (\(known))")
        }
        guard let signature = jws.es256Signature else { throw Failure(reason: "signature is not a 64-byte R‖S value") }
        guard publicKey.isValidSignature(signature, for: jws.signingInput) else {
            throw Failure(reason: "signature does not verify with key \(keyID)")
        }
        guard let claims = jws.payload else { throw Failure(reason: "payload is not a base64url JSON object") }
        let (jti, expiresAt) = try checkClaims(claims, clientID: clientID, issuer: issuer, now: now)
        return Verified(key: key.binding, jti: jti, expiresAt: expiresAt)
    }

    /// The claims of RFC 7523 §3: `iss`, `sub`, `aud`, `jti`, `exp`, `iat` and an optional `nbf`.
    private func checkClaims(
        _ claims: [String: Any],
        clientID: String,
        issuer: String,
        now: Date
    ) throws(Failure) -> (jti: String, expiresAt: Date) {
        guard claims["iss"] as? String == clientID else {
            throw Failure(reason: "iss must be the client_id \(clientID)")
        }
        guard claims["sub"] as? String == clientID else {
            throw Failure(reason: "sub must be the client_id \(clientID)")
        }
        let audience = claims["aud"]
        let audiences = (audience as? [Any])?.compactMap { $0 as? String } ?? (audience as? String).map { [$0] } ?? []
        guard audiences.contains(issuer) else {
            throw Failure(reason: "aud must be this authorization server's issuer \(issuer)")
        }
        guard let jti = claims["jti"] as? String, !jti.isEmpty else { throw Failure(reason: "has no jti") }
        let expiresAt = try Self.numericDate(claims["exp"], name: "exp")
        let issuedAt = try Self.numericDate(claims["iat"], name: "iat")
        guard issuedAt <= now.addingTimeInterval(maximumSkew) else { throw Failure(reason: "iat is in the future") }
        guard issuedAt >= now.addingTimeInterval(-maximumAge) else {
            throw Failure(reason: "iat is more than \(WholeSeconds.of(maximumAge)) seconds ago")
        }
        if claims["nbf"] != nil {
            let notBefore = try Self.numericDate(claims["nbf"], name: "nbf")
            guard notBefore <= now.addingTimeInterval(maximumSkew) else {
                throw Failure(reason: "nbf is in the future")
            }
        }
        guard expiresAt > now else { throw Failure(reason: "has expired (exp is past)") }
        guard expiresAt > issuedAt, expiresAt.timeIntervalSince(issuedAt) <= maximumLifetime else {
            throw Failure(
                reason: "exp must be after iat and at most \(WholeSeconds.of(maximumLifetime)) seconds after it"
            )
        }
        return (jti, expiresAt)
    }

    /// The NumericDate claim `name` (RFC 7519 §2), or the failure that names it.
    private static func numericDate(_ value: Any?, name: String) throws(Failure) -> Date {
        guard let time = Date(numericDate: value) else {
            throw Failure(reason: "\(name) must be a number of seconds (NumericDate)")
        }
        return time
    }
}
