import Crypto
public import Foundation

/// Makes DPoP proofs for one key (RFC 9449 §4.2), with the header encoded once and the claims written by hand.
public struct DPoPProofSigner: Sendable {
    /// The key that signs.
    public let key: DPoPKey
    private let encodedHeader: [UInt8]
    private let random: any RandomSource

    /// Creates a signer; `random` supplies each proof's `jti`.
    public init(key: DPoPKey, random: any RandomSource = .system) {
        self.key = key
        self.random = random
        var header = [UInt8]()
        header.append(contentsOf: #"{"typ":"dpop+jwt","alg":"ES256","jwk":"#.utf8)
        key.publicJWK.appendJSON(to: &header)
        header.append(0x7D)
        self.encodedHeader = Array(Base64URL.encode(header).utf8)
    }

    /// Makes a proof for one request.
    ///
    /// - Parameters:
    ///   - method: the request method (`htm`).
    ///   - url: the request URL; query and fragment are dropped for `htu`.
    ///   - nonce: the server's latest `DPoP-Nonce`, when it gave one.
    ///   - accessToken: the access token sent with the request; adds `ath` (RFC 9449 §4.2).
    ///   - issuedAt: the time for `iat`, truncated to whole seconds.
    /// - Returns: the compact JWS for the `DPoP` header.
    /// - Throws: ``DPoPError`` when the URL has no scheme or host, or signing fails.
    public func proof(
        method: HTTPMethod,
        url: URL,
        nonce: String? = nil,
        accessToken: String? = nil,
        issuedAt: Date
    ) throws -> String {
        try proof(
            method: method,
            htu: DPoPTarget.htu(for: url),
            nonce: nonce,
            accessToken: accessToken,
            issuedAt: issuedAt
        )
    }

    /// Makes a proof for an already normalized `htu`.
    public func proof(
        method: HTTPMethod,
        htu: String,
        nonce: String?,
        accessToken: String?,
        issuedAt: Date
    ) throws -> String {
        var claims = [UInt8]()
        claims.reserveCapacity(256)
        claims.append(0x7B)
        JSONString.appendKey("jti", to: &claims)
        JSONString.append(Base64URL.encode(random.bytes(count: Self.jtiByteCount)), to: &claims)
        claims.append(0x2C)
        JSONString.appendKey("htm", to: &claims)
        JSONString.append(method.rawValue, to: &claims)
        claims.append(0x2C)
        JSONString.appendKey("htu", to: &claims)
        JSONString.append(htu, to: &claims)
        claims.append(0x2C)
        JSONString.appendKey("iat", to: &claims)
        claims.append(contentsOf: String(Int64(issuedAt.timeIntervalSince1970.rounded(.down))).utf8)
        if let nonce {
            claims.append(0x2C)
            JSONString.appendKey("nonce", to: &claims)
            JSONString.append(nonce, to: &claims)
        }
        if let accessToken {
            claims.append(0x2C)
            JSONString.appendKey("ath", to: &claims)
            JSONString.append(Self.accessTokenHash(accessToken), to: &claims)
        }
        claims.append(0x7D)

        var signingInput = encodedHeader
        signingInput.reserveCapacity(encodedHeader.count + claims.count * 4 / 3 + 100)
        signingInput.append(0x2E)
        signingInput.append(contentsOf: Base64URL.encode(claims).utf8)
        let signature = try key.privateKey.signature(for: signingInput)
        signingInput.append(0x2E)
        signingInput.append(contentsOf: Base64URL.encode(signature.rawRepresentation).utf8)
        return String(decoding: signingInput, as: UTF8.self)
    }

    /// The `ath` value for an access token: base64url(SHA-256(ASCII token)) (RFC 9449 §4.2).
    public static func accessTokenHash(_ accessToken: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(accessToken.utf8)))
    }

    /// 16 bytes: 128 bits of `jti` entropy, above the 96 RFC 9449 §11.1 asks for.
    static let jtiByteCount = 16
}
