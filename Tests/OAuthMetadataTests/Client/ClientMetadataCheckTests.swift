import Foundation
import Testing

@testable import OAuthMetadata

/// `ClientMetadataCheck`: every problem of a client metadata document, each with its rule, and nothing that
/// `ClientMetadata` accepts.
@Suite("Checking a client metadata document against the AT Protocol profile")
struct ClientMetadataCheckTests {
    static let clientID = "https://app.example.com/client-metadata.json"

    /// A valid confidential web client's document with one ES256 key.
    static func confidential() -> [String: Any] {
        [
            "client_id": clientID, "application_type": "web", "client_name": "Example",
            "client_uri": "https://app.example.com", "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"], "scope": "atproto transition:generic",
            "redirect_uris": ["https://app.example.com/callback"], "token_endpoint_auth_method": "private_key_jwt",
            "token_endpoint_auth_signing_alg": "ES256", "jwks": ["keys": [ClientKey().publicJWK]],
            "dpop_bound_access_tokens": true,
        ]
    }

    /// A valid native app's document: loopback and private-use redirects, no keys.
    static func native() -> [String: Any] {
        [
            "client_id": clientID, "application_type": "native", "client_name": "Example app",
            "client_uri": "https://app.example.com/", "logo_uri": "https://app.example.com/logo.png",
            "tos_uri": "https://app.example.com/tos", "policy_uri": "https://app.example.com/policy",
            "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
            "scope": "atproto repo:app.bsky.feed.post blob:image/*",
            "redirect_uris": ["com.example.app:/callback", "http://127.0.0.1/callback", "http://[::1]:8080/cb"],
            "token_endpoint_auth_method": "none", "dpop_bound_access_tokens": true,
        ]
    }

    static func problems(
        _ object: [String: Any],
        fetchedFrom url: String? = ClientMetadataCheckTests.clientID,
        allowHTTPLoopback: Bool = false
    ) throws -> [ClientMetadataProblem] {
        ClientMetadataCheck.problems(
            in: try JSONSerialization.data(withJSONObject: object),
            fetchedFrom: url,
            allowHTTPLoopback: allowHTTPLoopback
        )
    }

    /// Changes the keys of a document's inline `jwks`.
    static func editKeys(_ object: inout [String: Any], _ edit: (inout [[String: String]]) -> Void) {
        var keys = (object["jwks"] as? [String: [[String: String]]])?["keys"] ?? []
        edit(&keys)
        object["jwks"] = ["keys": keys]
    }

    @Test("a valid confidential and a valid native document have no problem, and ClientMetadata accepts both")
    func validDocuments() throws {
        for document in [Self.confidential(), Self.native()] {
            let problems = try Self.problems(document)
            #expect(problems.isEmpty, "\(problems)")
            #expect(try Self.problems(document, fetchedFrom: nil).isEmpty)
            let metadata = try ClientMetadata(
                json: try JSONSerialization.data(withJSONObject: document),
                expectedClientID: Self.clientID
            )
            #expect(metadata.isConfidential == (document["token_endpoint_auth_method"] as? String == "private_key_jwt"))
        }
    }

    /// A document broken one way, and the member its problem must name.
    struct Breakage: Sendable, CustomTestStringConvertible {
        var name: String
        var native = false
        var field: String
        var change: @Sendable (inout [String: Any]) -> Void

        var testDescription: String { name }
    }

    static let breakages: [Breakage] = [
        Breakage(name: "no client_id", field: "client_id") { $0["client_id"] = nil },
        Breakage(name: "an http client_id", field: "client_id") {
            $0["client_id"] = "http://app.example.com/client-metadata.json"
        },
        Breakage(name: "a client_id with a query", field: "client_id") {
            $0["client_id"] = "https://app.example.com/client-metadata.json?v=2"
        },
        Breakage(name: "a client_id other than the URL", field: "client_id") {
            $0["client_id"] = "https://app.example.com/other.json"
        },
        Breakage(name: "an unknown application_type", field: "application_type") { $0["application_type"] = "desktop" },
        Breakage(name: "a native confidential client", field: "token_endpoint_auth_method") {
            $0["application_type"] = "native"
        },
        Breakage(name: "no refresh_token grant", field: "grant_types") { $0["grant_types"] = ["authorization_code"] },
        Breakage(name: "the implicit grant", field: "grant_types") {
            $0["grant_types"] = ["authorization_code", "refresh_token", "implicit"]
        },
        Breakage(name: "a token response type", field: "response_types") { $0["response_types"] = ["code", "token"] },
        Breakage(name: "no atproto scope", field: "scope") { $0["scope"] = "transition:generic" },
        Breakage(name: "a malformed permission", field: "scope") { $0["scope"] = "atproto repo:not-an-nsid" },
        Breakage(name: "a scope listed twice", field: "scope") { $0["scope"] = "atproto atproto" },
        Breakage(name: "DPoP off", field: "dpop_bound_access_tokens") { $0["dpop_bound_access_tokens"] = false },
        Breakage(name: "no redirect URI", field: "redirect_uris") { $0["redirect_uris"] = [String]() },
        Breakage(name: "a localhost redirect", field: "redirect_uris") {
            $0["redirect_uris"] = ["http://localhost/callback"]
        },
        Breakage(name: "a web redirect on another host", field: "redirect_uris") {
            $0["redirect_uris"] = ["https://evil.example/callback"]
        },
        Breakage(name: "a web client's private-use redirect", field: "redirect_uris") {
            $0["redirect_uris"] = ["com.example.app:/callback"]
        },
        Breakage(name: "a native redirect to another app's scheme", native: true, field: "redirect_uris") {
            $0["redirect_uris"] = ["com.other.app:/callback"]
        },
        Breakage(name: "a private-use scheme with two slashes", native: true, field: "redirect_uris") {
            $0["redirect_uris"] = ["com.example.app://callback"]
        },
        Breakage(name: "a native http redirect to a name", native: true, field: "redirect_uris") {
            $0["redirect_uris"] = ["http://app.example.com/callback"]
        },
        Breakage(name: "a client secret", field: "token_endpoint_auth_method") {
            $0["token_endpoint_auth_method"] = "client_secret_basic"
        },
        Breakage(
            name: "a public client with a signing algorithm",
            native: true,
            field: "token_endpoint_auth_signing_alg"
        ) { $0["token_endpoint_auth_signing_alg"] = "ES256" },
        Breakage(name: "RS256 assertions", field: "token_endpoint_auth_signing_alg") {
            $0["token_endpoint_auth_signing_alg"] = "RS256"
        },
        Breakage(name: "jwks and jwks_uri", field: "jwks") { $0["jwks_uri"] = "https://app.example.com/jwks.json" },
        Breakage(name: "no keys at all", field: "jwks") { $0["jwks"] = nil },
        Breakage(name: "an http jwks_uri", field: "jwks_uri") {
            $0["jwks"] = nil
            $0["jwks_uri"] = "http://app.example.com/jwks.json"
        },
        Breakage(name: "an empty key set", field: "jwks") { $0["jwks"] = ["keys": [[String: String]]()] },
        Breakage(name: "a key without kid", field: "jwks") { document in
            ClientMetadataCheckTests.editKeys(&document) { $0[0]["kid"] = nil }
        },
        Breakage(name: "an RSA key", field: "jwks") { document in
            ClientMetadataCheckTests.editKeys(&document) { $0[0]["kty"] = "RSA" }
        },
        Breakage(name: "a point off the curve", field: "jwks") { document in
            ClientMetadataCheckTests.editKeys(&document) { $0[0]["y"] = $0[0]["x"] }
        },
        Breakage(name: "two keys with one kid", field: "jwks") { document in
            ClientMetadataCheckTests.editKeys(&document) { keys in
                var other = ClientKey().publicJWK
                other["kid"] = keys[0]["kid"]
                keys.append(other)
            }
        },
        Breakage(name: "a client_uri on another origin", field: "client_uri") {
            $0["client_uri"] = "https://www.example.com"
        },
        Breakage(name: "a client_uri below the client_id", field: "client_uri") {
            $0["client_uri"] = "https://app.example.com/home"
        },
        Breakage(name: "an http logo", native: true, field: "logo_uri") {
            $0["logo_uri"] = "http://app.example.com/logo.png"
        },
        Breakage(name: "terms on another origin", native: true, field: "tos_uri") {
            $0["tos_uri"] = "https://legal.example.net/tos"
        },
        Breakage(name: "a jwks_uri with a password", field: "jwks_uri") {
            $0["jwks"] = nil
            $0["jwks_uri"] = "https://user:secret@app.example.com/jwks.json"
        },
        Breakage(name: "a jwks_uri with a fragment", field: "jwks_uri") {
            $0["jwks"] = nil
            $0["jwks_uri"] = "https://app.example.com/jwks.json#key"
        },
        Breakage(name: "an OpenID Connect member", native: true, field: "id_token_signed_response_alg") {
            $0["id_token_signed_response_alg"] = "ES256"
        },
        Breakage(name: "a default_max_age", field: "default_max_age") { $0["default_max_age"] = 3600 },
        Breakage(name: "a pairwise subject", native: true, field: "subject_type") { $0["subject_type"] = "pairwise" },
        Breakage(name: "mTLS-bound tokens", field: "tls_client_certificate_bound_access_tokens") {
            $0["tls_client_certificate_bound_access_tokens"] = true
        },
        Breakage(name: "encrypted responses", native: true, field: "authorization_encrypted_response_enc") {
            $0["authorization_encrypted_response_enc"] = "A128GCM"
        },
        Breakage(name: "authorization details", field: "authorization_details_types") {
            $0["authorization_details_types"] = ["payment_initiation"]
        },
        Breakage(name: "a client_name that is a number", native: true, field: "client_name") { $0["client_name"] = 5 },
    ]

    @Test(
        "each broken rule is a problem naming its member and rule, and ClientMetadata refuses it",
        arguments: breakages
    )
    func brokenRule(_ breakage: Breakage) throws {
        var document = breakage.native ? Self.native() : Self.confidential()
        breakage.change(&document)
        let problems = try Self.problems(document)
        #expect(problems.contains { $0.field == breakage.field }, "\(problems)")
        #expect(problems.allSatisfy { !$0.problem.isEmpty && !$0.rule.isEmpty })
        let json = try JSONSerialization.data(withJSONObject: document)
        #expect(throws: MetadataError.self) { try ClientMetadata(json: json, expectedClientID: Self.clientID) }
    }

    @Test("a document broken several ways gets one problem for each, in one pass")
    func severalProblems() throws {
        var document = Self.confidential()
        document["dpop_bound_access_tokens"] = nil
        document["scope"] = "transition:generic"
        document["redirect_uris"] = ["http://localhost/callback", "https://evil.example/callback"]
        document["token_endpoint_auth_signing_alg"] = "HS256"
        let problems = try Self.problems(document)
        #expect(problems.count >= 5, "\(problems)")
        let fields = Set(problems.map(\.field))
        #expect(
            fields.isSuperset(of: [
                "dpop_bound_access_tokens", "scope", "redirect_uris", "token_endpoint_auth_signing_alg",
            ])
        )
        #expect(problems.filter { $0.field == "redirect_uris" }.count == 2)
        #expect(problems.first { $0.field == "scope" }?.rule.contains("atproto.com/specs") == true)
    }

    @Test("a private key in jwks is reported by its member's name, never its value, in any document")
    func publishedPrivateKey() throws {
        let key = ClientKey()
        let privateJWK = try #require(try JSONSerialization.jsonObject(with: key.privateJWK) as? [String: String])
        let secret = try #require(privateJWK["d"])
        for base in [Self.confidential(), Self.native()] {
            var document = base
            document["jwks"] = ["keys": [privateJWK]]
            let problems = try Self.problems(document)
            let leak = try #require(problems.first { $0.problem.contains("private key material") }, "\(problems)")
            #expect(leak.field == "jwks")
            #expect(leak.problem.contains("(d)") && leak.problem.contains(key.keyID))
            #expect(!problems.contains { $0.description.contains(secret) })
            #expect(throws: MetadataError.self) {
                try ClientMetadata(json: try JSONSerialization.data(withJSONObject: document))
            }
        }
    }

    @Test("what is not a JSON object, and a document over 64 KiB, are problems of the document")
    func document() throws {
        for json in ["[]", "\"client\"", "{", ""] {
            let problems = ClientMetadataCheck.problems(
                in: Data(json.utf8),
                fetchedFrom: Self.clientID,
                allowHTTPLoopback: false
            )
            #expect(problems.map(\.field) == ["document"], "\(json): \(problems)")
        }
        var large = Self.confidential()
        large["client_name"] = String(repeating: "a", count: 70_000)
        #expect(try Self.problems(large).map(\.field) == ["document"])
    }

    @Test(
        "a name given twice in one object is a problem, since servers read the last value and others the first",
        arguments: [
            (#""dpop_bound_access_tokens": false, "dpop_bound_access_tokens": true"#, "dpop_bound_access_tokens"),
            (#""scope": "atproto", "sc\u006fpe": "atproto transition:generic""#, "scope"),
        ]
    )
    func repeatedName(_ members: String, _ name: String) throws {
        var document = Self.native()
        document[name] = nil
        let base = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
        let json = Data((base.dropLast() + ", " + members + "}").utf8)
        let problems = ClientMetadataCheck.problems(in: json, fetchedFrom: Self.clientID, allowHTTPLoopback: false)
        let first = try #require(problems.first)
        #expect(first.field == name && first.problem.contains("given twice"), "\(problems)")
        #expect(throws: MetadataError.self) { try ClientMetadata(json: json, expectedClientID: Self.clientID) }
    }

    @Test("null stands for an absent member, as at the reference server")
    func nullMembers() throws {
        var document = Self.native()
        for name in ["default_max_age", "authorization_encrypted_response_enc"] { document[name] = NSNull() }
        #expect(try Self.problems(document).isEmpty)
    }

    @Test("a member of the wrong type is a problem, not a crash: true is not 1")
    func wrongTypes() throws {
        var document = Self.confidential()
        document["dpop_bound_access_tokens"] = 1
        document["redirect_uris"] = "https://app.example.com/callback"
        document["grant_types"] = ["authorization_code", 7] as [Any]
        let fields = try Self.problems(document).map(\.field)
        #expect(Set(fields) == ["dpop_bound_access_tokens", "redirect_uris", "grant_types"], "\(fields)")
    }

    @Test("a development client on an http loopback client_id passes only in development mode")
    func developmentClient() throws {
        let clientID = "http://127.0.0.1:8080/client-metadata.json"
        var document = Self.confidential()
        document["client_id"] = clientID
        document["client_uri"] = "http://127.0.0.1:8080/"
        document["redirect_uris"] = ["http://127.0.0.1:8080/callback"]
        #expect(try Self.problems(document, fetchedFrom: clientID, allowHTTPLoopback: true).isEmpty)
        let strict = try Self.problems(document, fetchedFrom: clientID, allowHTTPLoopback: false)
        #expect(Set(strict.map(\.field)).isSuperset(of: ["client_id", "redirect_uris", "client_uri"]), "\(strict)")
        let metadata = try ClientMetadata(
            json: try JSONSerialization.data(withJSONObject: document),
            expectedClientID: clientID,
            allowHTTPLoopback: true
        )
        #expect(metadata.isConfidential)
    }

    @Test("each problem reads as “field: problem [rule]”")
    func problemText() {
        let problem = ClientMetadataProblem(field: "scope", problem: "it lacks atproto", rule: "RFC 6749 §3.3")
        #expect(problem.description == "scope: it lacks atproto [RFC 6749 §3.3]")
    }
}
