import Crypto
public import Foundation
public import HTTPTransport

/// Checks a DPoP proof as a server must (RFC 9449 §4.3): structure, header, signature and claims.
///
/// Replay (`jti`) and nonce freshness need server state, so the caller supplies the accepted nonces and keeps its
/// own `jti` memory; everything else is checked here.
public struct DPoPProofVerifier: Sendable {
    /// How far in the past `iat` may be.
    public var maximumAge: TimeInterval
    /// How far in the future `iat` may be (clock skew).
    public var maximumSkew: TimeInterval

    /// Creates a verifier; the defaults are the reference server's window (@atproto/oauth-provider).
    public init(maximumAge: TimeInterval = 190, maximumSkew: TimeInterval = 180) {
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
    /// - Returns: the proof's claims and key.
    /// - Throws: ``DPoPError`` naming the first failed check; ``DPoPError/isNonceError`` for a missing or stale nonce.
    public func verify(
        _ proof: String,
        method: HTTPMethod,
        url: URL,
        accessToken: String? = nil,
        acceptedNonces: Set<String>? = nil,
        now: Date
    ) throws -> VerifiedDPoPProof {
        let segments = proof.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw DPoPError.invalidProof("not a compact JWS with three segments") }
        let header = try jsonObject(segments[0], name: "header")
        let claims = try jsonObject(segments[1], name: "payload")

        guard header["typ"] as? String == "dpop+jwt" else { throw DPoPError.invalidProof("typ is not dpop+jwt") }
        guard header["alg"] as? String == "ES256" else { throw DPoPError.invalidProof("alg is not ES256") }
        guard let jwkObject = header["jwk"] as? [String: Any] else { throw DPoPError.invalidProof("no jwk") }
        guard jwkObject["d"] == nil else { throw DPoPError.invalidProof("jwk contains a private key") }
        guard let kty = jwkObject["kty"] as? String, let crv = jwkObject["crv"] as? String,
            let x = jwkObject["x"] as? String, let y = jwkObject["y"] as? String
        else { throw DPoPError.invalidProof("jwk lacks kty, crv, x or y") }
        let jwk = ECPublicJWK(kty: kty, crv: crv, x: x, y: y)
        let publicKey = try jwk.publicKey()

        guard let signatureBytes = Base64URL.decode(segments[2]), signatureBytes.count == 64,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        else { throw DPoPError.invalidProof("signature is not a 64-byte R‖S value") }
        let signingInput = Data(proof.utf8.prefix(segments[0].utf8.count + 1 + segments[1].utf8.count))
        guard publicKey.isValidSignature(signature, for: signingInput) else {
            throw DPoPError.invalidProof("signature does not verify")
        }

        guard let jti = claims["jti"] as? String, !jti.isEmpty else { throw DPoPError.invalidProof("no jti") }
        guard let htm = claims["htm"] as? String, htm == method.rawValue else {
            throw DPoPError.invalidProof("htm does not match the request method")
        }
        guard let htu = claims["htu"] as? String, let htuURL = URL(string: htu),
            try DPoPTarget.htu(for: htuURL) == DPoPTarget.htu(for: url)
        else { throw DPoPError.invalidProof("htu does not match the request URL") }
        let issuedAt = try issuedAt(claims["iat"], now: now)

        let nonce = claims["nonce"] as? String
        if let acceptedNonces {
            guard let nonce else { throw DPoPError.invalidNonce("the proof has no nonce") }
            guard acceptedNonces.contains(nonce) else { throw DPoPError.invalidNonce("the nonce is stale") }
        }
        let ath = claims["ath"] as? String
        if let accessToken {
            guard ath == DPoPProofSigner.accessTokenHash(accessToken) else {
                throw DPoPError.invalidProof("ath does not match the access token")
            }
        } else if ath != nil {
            throw DPoPError.invalidProof("ath is present but no access token was sent")
        }
        return VerifiedDPoPProof(
            jti: jti,
            htm: htm,
            htu: htu,
            issuedAt: issuedAt,
            nonce: nonce,
            ath: ath,
            jwk: jwk,
            thumbprint: jwk.thumbprint
        )
    }

    private func issuedAt(_ value: Any?, now: Date) throws -> Date {
        guard let number = value as? NSNumber, number.doubleValue.isFinite,
            number.doubleValue.rounded() == number.doubleValue
        else { throw DPoPError.invalidProof("iat is not a whole number of seconds") }
        let issuedAt = Date(timeIntervalSince1970: number.doubleValue)
        guard issuedAt >= now.addingTimeInterval(-maximumAge) else { throw DPoPError.invalidProof("iat is too old") }
        guard issuedAt <= now.addingTimeInterval(maximumSkew) else {
            throw DPoPError.invalidProof("iat is in the future")
        }
        return issuedAt
    }

    private func jsonObject(_ segment: Substring, name: String) throws -> [String: Any] {
        guard let data = Base64URL.decode(segment),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw DPoPError.invalidProof("the \(name) is not base64url JSON object") }
        return object
    }
}
