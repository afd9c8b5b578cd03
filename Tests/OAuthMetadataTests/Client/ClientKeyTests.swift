import DPoPRequestExecutor
import Foundation
import Testing

@testable import OAuthMetadata

@Suite("Client keys: ES256, named by kid, private part only as a JWK")
struct ClientKeyTests {
    @Test("A new key's kid is its RFC 7638 thumbprint, and its private JWK reads back as the same key")
    func roundTrip() throws {
        let key = ClientKey()
        let jwk = key.publicJWK
        #expect(key.keyID == ECPublicJWK(kty: "EC", crv: "P-256", x: jwk["x"] ?? "", y: jwk["y"] ?? "").thumbprint)
        let again = try ClientKey(contents: key.privateJWK)
        #expect(again.keyID == key.keyID)
        #expect(again.publicJWK == key.publicJWK)
        #expect(jwk["alg"] == "ES256" && jwk["use"] == "sig" && jwk["d"] == nil)
        #expect(!String(decoding: key.publicJWKS, as: UTF8.self).contains("\"d\""))
        #expect("\(key)" == "ClientKey(ES256, kid: \(key.keyID))")
    }

    @Test("A PKCS#8 PEM key reads, named by its thumbprint")
    func pem() throws {
        let pem = """
            -----BEGIN PRIVATE KEY-----
            MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgevZzL1gdAFr88hb2
            OF/2NxApJCzGCEDdfSp6VQO30hyhRANCAAQRWz+jn65BtOMvdyHKcvjBeBSDZH2r
            1RTwjmYSi9R/zpBnuQ4EiMnCqfMPWiZqB4QdbAd0E7oH50VpuZ1P087G
            -----END PRIVATE KEY-----
            """
        let key = try ClientKey(contents: Data(pem.utf8))
        #expect(!key.keyID.isEmpty)
        #expect(key.keyID == (try ClientKey(contents: key.privateJWK)).keyID)
    }

    @Test(
        "What is not an ES256 private key is refused without quoting it",
        arguments: [
            #"{"kty":"RSA","kid":"a","d":"AQAB"}"#, #"{"kty":"EC","crv":"P-384","kid":"a","d":"AQAB","x":"a","y":"b"}"#,
            #"{"kty":"EC","crv":"P-256","d":"AQAB","x":"a","y":"b"}"#, "not json",
            "-----BEGIN PRIVATE KEY-----\nAAAA\n",
        ]
    )
    func refused(_ text: String) {
        #expect(throws: MetadataError.self) { try ClientKey(contents: Data(text.utf8)) }
    }

    @Test("A JWK whose x and y are not its d's is refused")
    func mismatchedPublicPart() throws {
        let key = ClientKey()
        var object = try #require(try JSONSerialization.jsonObject(with: key.privateJWK) as? [String: String])
        object["x"] = ClientKey().publicJWK["x"]
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: MetadataError.self) { try ClientKey(contents: data) }
    }

    @Test("A key is published when a key set holds its kid and coordinates")
    func published() throws {
        let key = ClientKey()
        let jwk = key.publicJWK
        let own = PublicJWK(kty: "EC", crv: "P-256", x: jwk["x"], y: jwk["y"], kid: key.keyID)
        #expect(key.isPublished(in: ClientJWKS(keys: [own])))
        var renamed = own
        renamed.kid = "other"
        #expect(!key.isPublished(in: ClientJWKS(keys: [renamed])))
        var moved = own
        moved.x = ClientKey().publicJWK["x"]
        #expect(!key.isPublished(in: ClientJWKS(keys: [moved])))
    }
}
