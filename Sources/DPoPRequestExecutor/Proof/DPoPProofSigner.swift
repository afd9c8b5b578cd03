import Crypto
public import Foundation
public import HTTPTransport
public import WireFormat

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
    ///
    /// The claims are written into a stack buffer and the compact JWS straight into the new string's storage: the
    /// string is the only allocation besides the `jti` bytes the random source returns.
    public func proof(
        method: HTTPMethod,
        htu: String,
        nonce: String?,
        accessToken: String?,
        issuedAt: Date
    ) throws -> String {
        let jti = random.bytes(count: Self.jtiByteCount)
        let ath = accessToken.map(Self.accessTokenDigest)
        let issuedAtSeconds = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        // 69 bytes of names, punctuation and up to 20 digits of `iat`, rounded up; then the values' own bounds.
        var claimsCapacity = 96 + Base64URL.encodedCount(jti.count) + JSONString.maximumLength(of: method.rawValue)
        claimsCapacity += JSONString.maximumLength(of: htu) + (nonce.map(JSONString.maximumLength(of:)) ?? 0)
        claimsCapacity += Base64URL.encodedCount(SHA256.byteCount)
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: claimsCapacity) { buffer in
            var claims = ByteWriter(buffer)
            claims.append(#"{"jti":""#)
            jti.withUnsafeBytes { claims.append(base64URL: $0) }
            claims.append(#"","htm":"#)
            JSONString.write(method.rawValue, to: &claims)
            claims.append(#","htu":"#)
            JSONString.write(htu, to: &claims)
            claims.append(#","iat":"#)
            claims.append(decimal: issuedAtSeconds)
            if let nonce {
                claims.append(#","nonce":"#)
                JSONString.write(nonce, to: &claims)
            }
            if let ath {
                claims.append(#","ath":""#)
                ath.withUnsafeBytes { claims.append(base64URL: $0) }
                claims.append(UInt8(ascii: "\""))
            }
            claims.append(UInt8(ascii: "}"))
            return try compactJWS(claims: claims.written)
        }
    }

    /// The compact JWS: encoded header, encoded claims and the encoded ES256 signature over the first two.
    private func compactJWS(claims: UnsafeRawBufferPointer) throws -> String {
        let capacity = encodedHeader.count + 1 + Base64URL.encodedCount(claims.count) + 1 + Self.encodedSignatureCount
        return try String(unsafeUninitializedCapacity: capacity) { buffer in
            var jws = ByteWriter(buffer)
            encodedHeader.withUnsafeBytes { jws.append($0) }
            jws.append(UInt8(ascii: "."))
            jws.append(base64URL: claims)
            var hash = SHA256()
            hash.update(bufferPointer: jws.written)
            let signature = try key.privateKey.signature(for: hash.finalize())
            jws.append(UInt8(ascii: "."))
            signature.rawRepresentation.withUnsafeBytes { jws.append(base64URL: $0) }
            return jws.count
        }
    }

    /// The `ath` value for an access token: base64url(SHA-256(ASCII token)) (RFC 9449 §4.2).
    public static func accessTokenHash(_ accessToken: String) -> String {
        accessTokenDigest(accessToken).withUnsafeBytes { Base64URL.encode($0) }
    }

    /// SHA-256 of the token's bytes, hashed in place.
    private static func accessTokenDigest(_ accessToken: String) -> SHA256.Digest {
        var token = accessToken
        var hash = SHA256()
        token.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return hash.finalize()
    }

    /// An ES256 signature is 64 bytes, 86 in base64url.
    private static let encodedSignatureCount = Base64URL.encodedCount(64)

    /// 16 bytes: 128 bits of `jti` entropy, above the 96 RFC 9449 §11.1 asks for.
    static let jtiByteCount = 16
}
