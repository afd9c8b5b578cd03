import Crypto
package import Foundation
package import WireFormat

/// A client assertion: a JWT signed with the client's key that authenticates one request to the authorization
/// server (RFC 7523 §2.2 and §3; RFC 7521 §4.2; atproto.com/specs/oauth, Client Authentication).
///
/// A new one is made for every request, a DPoP nonce retry included, so that a server remembering `jti`s never sees
/// one twice.
package enum ClientAssertion {
    /// The `client_assertion_type` sent beside it (RFC 7523 §2.2).
    package static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// How long an assertion is valid, in seconds: `exp` is this long after `iat`.
    package static let lifetime: TimeInterval = 60
    /// How long before the moment of signing `iat` is set, in seconds.
    ///
    /// The reference authorization server takes an assertion at most 60 seconds old by its own clock, with no
    /// tolerance, so an `iat` even a second ahead of its clock is refused. Half that window back, a client clock up to
    /// 30 seconds either side of the server's is accepted, and `exp` is still 30 seconds ahead.
    package static let backdating: TimeInterval = 30

    /// Signs an assertion: header `{alg: ES256, kid, typ: JWT}`, claims `iss` = `sub` = the client ID, `aud` = the
    /// authorization server's issuer, a random `jti`, `iat` and `exp`.
    package static func make(
        key: ClientKey,
        clientID: String,
        audience: String,
        issuedAt: Date,
        random: any RandomSource = .system
    ) throws -> String {
        let issued = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        let claims =
            #"{"iss":"# + quoted(clientID) + #","sub":"# + quoted(clientID) + #","aud":"# + quoted(audience)
            + #","jti":""# + Base64URL.encode(random.bytes(count: 16)) + #"","iat":"# + String(issued)
            + #","exp":"# + String(issued + Int64(lifetime)) + "}"
        let signingInput = key.encodedAssertionHeader + "." + Base64URL.encode(Array(claims.utf8))
        let signature = try key.privateKey.signature(for: SHA256.hash(data: Data(signingInput.utf8)))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// The encoded JOSE header of a key's assertions: `{alg: ES256, typ: JWT, kid}`, the same for every one.
    static func encodedHeader(keyID: String) -> String {
        Base64URL.encode(Array((#"{"alg":"ES256","typ":"JWT","kid":"# + quoted(keyID) + "}").utf8))
    }

    /// `text` as a JSON string (RFC 8259 §7): quotes, backslashes and control characters escaped.
    private static func quoted(_ text: String) -> String {
        let plain = text.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        if plain { return "\"" + text + "\"" }
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
