import Crypto
package import Foundation
package import HTTPTransport
import WireFormat

/// Checks a DPoP proof as a server must (RFC 9449 §4.3): structure, header, signature and claims.
///
/// It is the server's own code, written apart from the client's signer, so that the sandbox checks what the client
/// sends rather than agreeing with it by construction: the key, its thumbprint (RFC 7638), the `htu` comparison
/// (RFC 3986 §6.2.2, §6.2.3) and `ath` are all computed here. Replay (`jti`) and nonce freshness need server state,
/// so the caller supplies the accepted nonces and keeps its own `jti` memory.
package struct DPoPProofVerifier: Sendable {
    /// Why a proof was refused; `reason` names the failed check.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What the failure concerns.
        package enum Kind: Sendable, Hashable {
            /// The proof or one of its claims is wrong.
            case invalid
            /// The proof carries no nonce where one is required (RFC 9449 §8).
            case nonceMissing
            /// The proof's nonce is not one the server accepts now.
            case nonceStale
        }

        /// What the failure concerns.
        package var kind: Kind
        /// The failed check, in words, such as `htu does not match the request URL`.
        package var reason: String

        /// The failed check.
        package var description: String { "DPoP proof refused: \(reason)" }
    }

    /// How far in the past `iat` may be.
    package var maximumAge: TimeInterval
    /// How far in the future `iat` may be (clock skew).
    package var maximumSkew: TimeInterval

    /// Creates a verifier; the defaults are the reference server's window (@atproto/oauth-provider).
    package init(maximumAge: TimeInterval = 190, maximumSkew: TimeInterval = 180) {
        self.maximumAge = maximumAge
        self.maximumSkew = maximumSkew
    }

    /// Verifies a proof for a request.
    ///
    /// - Parameters:
    ///   - proof: the compact JWS from the `DPoP` header.
    ///   - method: the request's method; must equal `htm`.
    ///   - url: the request's URL; its normalized form must equal the normalized `htu`.
    ///   - accessToken: the access token sent with the request; then `ath` must match, else `ath` must be absent.
    ///   - acceptedNonces: when non-nil, `nonce` must be present and one of these.
    ///   - now: the current time.
    /// - Returns: the proof's claims and key thumbprint.
    /// - Throws: ``Failure`` naming the first failed check.
    package func verify(
        _ proof: String,
        method: HTTPMethod,
        url: URL,
        accessToken: String? = nil,
        acceptedNonces: Set<String>? = nil,
        now: Date
    ) throws(Failure) -> VerifiedDPoPProof {
        guard let jws = CompactJWS(proof) else { throw .invalid("not a compact JWS with three segments") }
        guard let header = jws.header else { throw .invalid("the header is not base64url JSON object") }
        guard let claims = jws.payload else { throw .invalid("the payload is not base64url JSON object") }

        guard header["typ"] as? String == "dpop+jwt" else { throw .invalid("typ is not dpop+jwt") }
        // No extension is understood here, so a header that marks any as critical is refused (RFC 7515 §4.1.11).
        guard header["crit"] == nil else { throw .invalid("crit names extensions this server does not understand") }
        guard header["alg"] as? String == "ES256" else { throw .invalid("alg is not ES256") }
        guard let jwk = header["jwk"] as? [String: Any] else { throw .invalid("no jwk") }
        guard jwk["d"] == nil else { throw .invalid("jwk contains a private key") }
        let key = try ProofKey(jwk: jwk)

        guard let signature = jws.es256Signature else { throw .invalid("signature is not a 64-byte R‖S value") }
        guard key.publicKey.isValidSignature(signature, for: jws.signingInput) else {
            throw .invalid("signature does not verify")
        }

        guard let jti = claims["jti"] as? String, !jti.isEmpty else { throw .invalid("no jti") }
        guard let htm = claims["htm"] as? String, htm == method.rawValue else {
            throw .invalid("htm does not match the request method")
        }
        guard let htu = claims["htu"] as? String else { throw .invalid("no htu") }
        guard !RequestTarget.hasCredentials(htu) else { throw .invalid("htu names a user or password") }
        guard let claimed = RequestTarget(htu), let requested = RequestTarget(url.absoluteString), claimed == requested
        else { throw .invalid("htu does not match the request URL") }
        let issuedAt = try issuedAt(claims["iat"], now: now)
        try checkValidityWindow(claims, now: now)

        let nonce = claims["nonce"] as? String
        if let acceptedNonces {
            guard let nonce else { throw Failure(kind: .nonceMissing, reason: "the proof has no nonce") }
            guard acceptedNonces.contains(nonce) else { throw Failure(kind: .nonceStale, reason: "the nonce is stale") }
        }
        let ath = claims["ath"] as? String
        if let accessToken {
            guard ath == Base64URL.encode(SHA256.hash(data: Data(accessToken.utf8))) else {
                throw .invalid("ath does not match the access token")
            }
        } else if ath != nil {
            throw .invalid("ath is present but no access token was sent")
        }
        return VerifiedDPoPProof(
            jti: jti,
            htm: htm,
            htu: htu,
            issuedAt: issuedAt,
            nonce: nonce,
            ath: ath,
            thumbprint: key.thumbprint
        )
    }

    private func issuedAt(_ value: Any?, now: Date) throws(Failure) -> Date {
        guard let issuedAt = Date(numericDate: value),
            issuedAt.timeIntervalSince1970.rounded() == issuedAt.timeIntervalSince1970
        else { throw .invalid("iat is not a whole number of seconds") }
        guard issuedAt >= now.addingTimeInterval(-maximumAge) else { throw .invalid("iat is too old") }
        guard issuedAt <= now.addingTimeInterval(maximumSkew) else { throw .invalid("iat is in the future") }
        return issuedAt
    }
}

extension DPoPProofVerifier {
    /// `exp` and `nbf`, which a proof need not carry, must hold when it does (RFC 7519 §4.1.4, §4.1.5), within the
    /// clock skew allowed for `iat`.
    private func checkValidityWindow(_ claims: [String: Any], now: Date) throws(Failure) {
        if let expiry = try time(claims, "exp"), expiry < now.addingTimeInterval(-maximumSkew) {
            throw .invalid("the proof has expired (exp)")
        }
        if let start = try time(claims, "nbf"), start > now.addingTimeInterval(maximumSkew) {
            throw .invalid("the proof is not valid yet (nbf)")
        }
    }

    /// The time of the NumericDate claim `name` (RFC 7519 §2), if the proof has it.
    private func time(_ claims: [String: Any], _ name: String) throws(Failure) -> Date? {
        guard let value = claims[name] else { return nil }
        guard let time = Date(numericDate: value) else { throw .invalid("\(name) is not a number of seconds") }
        return time
    }
}

extension DPoPProofVerifier.Failure {
    /// A proof or claim that is wrong.
    static func invalid(_ reason: String) -> Self { Self(kind: .invalid, reason: reason) }
}
