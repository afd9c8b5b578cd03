import Foundation
import HTTPTransport
import Testing

@testable import Sandbox

@Suite("Confidential client metadata documents")
struct ConfidentialDocumentTests {
    static let clientID = ConfidentialDocuments.clientID
    static let key = TestSigningKey(kid: "key-1")

    static func resolve(
        _ document: Data,
        clientID: String = ConfidentialDocumentTests.clientID
    ) throws(ClientResolver.Refusal) -> ClientRegistration {
        try ClientResolver.resolve(clientID, documents: [clientID: document])
    }

    @Test("a web document with inline jwks is a confidential client holding its keys")
    func inlineJWKS() throws {
        let client = try Self.resolve(try ConfidentialDocuments.document(keys: [Self.key]))
        #expect(client.kind == .web)
        guard case .privateKeyJWT(.inline(let keys)) = client.authentication else {
            Issue.record("not a confidential client with inline keys: \(client.authentication)")
            return
        }
        #expect(keys.keyIDs == ["key-1"])
    }

    @Test(
        "jwks_uri may be https, or http to a loopback IP",
        arguments: [
            "https://confidential.example/jwks.json", "http://127.0.0.1:8080/jwks.json", "http://[::1]:8080/jwks.json",
        ]
    )
    func jwksURI(_ uri: String) throws {
        let client = try Self.resolve(try ConfidentialDocuments.document(jwksURI: uri))
        #expect(client.authentication == .privateKeyJWT(.uri(uri)))
    }

    @Test("a client_id on a loopback IP may register http loopback redirect URIs; an https one may not")
    func loopbackRedirectURIs() throws {
        let loopbackClientID = "http://127.0.0.1:8080/client-metadata.json"
        let redirectURI = "http://127.0.0.1:54321/callback"
        let client = try Self.resolve(
            try ConfidentialDocuments.document(clientID: loopbackClientID, redirectURI: redirectURI, keys: [Self.key]),
            clientID: loopbackClientID
        )
        try ClientResolver.checkRedirectURI(redirectURI, for: client)
        #expect(throws: ClientResolver.Refusal.self) {
            try ClientResolver.checkRedirectURI("http://127.0.0.1:54322/callback", for: client)
        }
        #expect(throws: ClientResolver.Refusal.self) {
            try Self.resolve(try ConfidentialDocuments.document(redirectURI: redirectURI, keys: [Self.key]))
        }
    }

    /// One member of a confidential client's document made wrong, and a word of the refusal.
    enum DocumentFault: CaseIterable, CustomTestStringConvertible, Sendable {
        case nativeApplication, bothJWKSAndURI, neitherJWKSNorURI, keyWithoutKeyID, noKeys, duplicateKeyID
        case privateKeyPublished, noP256Key, noSigningAlgorithm, otherSigningAlgorithm, plainHTTPJWKSURI
        case clientSecretBasic, noAuthenticationMethod, notDPoPBound

        var testDescription: String { "\(self)" }

        /// A word the refusal's reason holds.
        var word: String {
            switch self {
            case .nativeApplication: "native"
            case .bothJWKSAndURI: "not both"
            case .neitherJWKSNorURI: "jwks or jwks_uri"
            case .keyWithoutKeyID: "kid"
            case .noKeys: "non-empty keys"
            case .duplicateKeyID: "two keys"
            case .privateKeyPublished: "private key"
            case .noP256Key: "P-256"
            case .noSigningAlgorithm, .otherSigningAlgorithm: "token_endpoint_auth_signing_alg"
            case .plainHTTPJWKSURI: "jwks_uri"
            case .clientSecretBasic, .noAuthenticationMethod: "token_endpoint_auth_method"
            case .notDPoPBound: "dpop_bound_access_tokens"
            }
        }

        func document() throws -> Data {
            let key = ConfidentialDocumentTests.key
            var jwk: [String: Any] = key.publicJWK
            switch self {
            case .nativeApplication:
                return try ConfidentialDocuments.document(keys: [key], changes: ["application_type": "native"])
            case .bothJWKSAndURI:
                return try ConfidentialDocuments.document(keys: [key], jwksURI: "https://confidential.example/jwks")
            case .neitherJWKSNorURI:
                return try ConfidentialDocuments.document()
            case .keyWithoutKeyID:
                jwk["kid"] = nil
                return try ConfidentialDocuments.document(changes: ["jwks": ["keys": [jwk]]])
            case .noKeys:
                return try ConfidentialDocuments.document(changes: ["jwks": ["keys": [Any]()]])
            case .duplicateKeyID:
                return try ConfidentialDocuments.document(keys: [key, TestSigningKey(kid: key.kid)])
            case .privateKeyPublished:
                jwk["d"] = "c2VjcmV0"
                return try ConfidentialDocuments.document(changes: ["jwks": ["keys": [jwk]]])
            case .noP256Key:
                let rsa = ["kty": "RSA", "kid": "rsa-1", "n": "sXchDaQebHnPiGvyDOAT4saGEUetSyo9", "e": "AQAB"]
                return try ConfidentialDocuments.document(changes: ["jwks": ["keys": [rsa]]])
            case .noSigningAlgorithm:
                return try ConfidentialDocuments.document(
                    keys: [key],
                    changes: ["token_endpoint_auth_signing_alg": NSNull()]
                )
            case .otherSigningAlgorithm:
                return try ConfidentialDocuments.document(
                    keys: [key],
                    changes: ["token_endpoint_auth_signing_alg": "RS256"]
                )
            case .plainHTTPJWKSURI:
                return try ConfidentialDocuments.document(jwksURI: "http://confidential.example/jwks.json")
            case .clientSecretBasic:
                return try ConfidentialDocuments.document(
                    keys: [key],
                    changes: ["token_endpoint_auth_method": "client_secret_basic"]
                )
            case .noAuthenticationMethod:
                return try ConfidentialDocuments.document(
                    keys: [key],
                    changes: ["token_endpoint_auth_method": NSNull()]
                )
            case .notDPoPBound:
                return try ConfidentialDocuments.document(keys: [key], changes: ["dpop_bound_access_tokens": false])
            }
        }
    }

    @Test(
        "documents outside the confidential-client profile are refused, saying why",
        arguments: DocumentFault.allCases
    )
    func refusals(_ fault: DocumentFault) throws {
        let document = try fault.document()
        let refusal = try #require(throws: ClientResolver.Refusal.self) { try Self.resolve(document) }
        #expect(refusal.reason.contains(fault.word), "\(refusal.reason)")
    }

    @Test("a PAR by a native private_key_jwt client, or one giving both jwks and jwks_uri, is invalid_client")
    func refusedAtPAR() async throws {
        let documents = [
            "https://native.example/client-metadata.json": try ConfidentialDocuments.document(
                clientID: "https://native.example/client-metadata.json",
                redirectURI: "https://native.example/callback",
                keys: [Self.key],
                changes: ["application_type": "native"]
            ),
            "https://both.example/client-metadata.json": try ConfidentialDocuments.document(
                clientID: "https://both.example/client-metadata.json",
                redirectURI: "https://both.example/callback",
                keys: [Self.key],
                jwksURI: "https://both.example/jwks.json"
            ),
        ]
        let configuration = SandboxConfiguration(autoApprove: true, clientMetadataDocuments: documents)
        try await withSandbox(configuration) { sandbox in
            for (host, word) in [("native.example", "native"), ("both.example", "not both")] {
                let client = ConfidentialTestClient(
                    sandbox,
                    clientID: "https://\(host)/client-metadata.json",
                    redirectURI: "https://\(host)/callback"
                )
                let pushed = try await client.pushAuthorization(
                    FlowSecrets(),
                    authentication: try client.authentication(Self.key)
                )
                #expect(pushed.status == 400)
                #expect(pushed.errorCode == "invalid_client")
                let description = try pushed.json()["error_description"] as? String
                #expect(description?.contains(word) == true, "\(description ?? "no description")")
            }
            #expect(sandbox.server.counters.rejections(.invalidClient) == 2)
        }
    }
}
