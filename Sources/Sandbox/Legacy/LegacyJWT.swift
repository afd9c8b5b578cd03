import Crypto
import Foundation
import WireFormat

/// The legacy session JWTs the sandbox PDS issues for app-password sessions: HS256 with a key of its own
/// (RFC 7519, RFC 7515 §3.1), an access JWT (`typ` `at+jwt`, scope `com.atproto.appPass`) and a refresh JWT (`typ`
/// `refresh+jwt`, scope `com.atproto.refresh`), as the reference PDS makes them.
struct LegacyJWT: Sendable {
    /// Which of the two a token is.
    enum Kind: String, Sendable {
        case access = "at+jwt"
        case refresh = "refresh+jwt"

        /// The `scope` claim of this kind.
        var scope: String { self == .access ? "com.atproto.appPass" : "com.atproto.refresh" }
    }

    /// The claims the sandbox reads back.
    struct Claims: Sendable {
        var kind: Kind
        var subject: String
        var id: String
        var expiresAt: Date
    }

    private let key: SymmetricKey
    /// The `aud` of every token: the PDS's service DID.
    let audience: String

    init(keyBytes: [UInt8], audience: String) {
        key = SymmetricKey(data: keyBytes)
        self.audience = audience
    }

    /// Signs a new token.
    func issue(_ kind: Kind, subject: String, id: String, issuedAt: Date, expiresAt: Date) -> String {
        let header = JSONBody.encode(["alg": "HS256", "typ": kind.rawValue])
        let claims = JSONBody.encode([
            "scope": kind.scope, "sub": subject, "aud": audience, "jti": id,
            "iat": WholeSeconds.since1970(issuedAt), "exp": WholeSeconds.since1970(expiresAt),
        ])
        let input = Base64URL.encode(header) + "." + Base64URL.encode(claims)
        let signature = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: key)
        return input + "." + Base64URL.encode(Data(signature))
    }

    /// The claims of a token this sandbox signed, whether or not it expired; `nil` for anything else (an OAuth
    /// access token, another key's JWT, a malformed or tampered one).
    func verify(_ token: String) -> Claims? {
        guard let jws = CompactJWS(token), let signature = jws.signature,
            HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: jws.signingInput, using: key),
            let header = jws.header, let kind = (header["typ"] as? String).flatMap(Kind.init(rawValue:)),
            let claims = jws.payload,
            claims["scope"] as? String == kind.scope, claims["aud"] as? String == audience,
            let subject = claims["sub"] as? String, let id = claims["jti"] as? String,
            let exp = (claims["exp"] as? NSNumber)?.doubleValue
        else { return nil }
        return Claims(kind: kind, subject: subject, id: id, expiresAt: Date(timeIntervalSince1970: exp))
    }
}
