import Crypto
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("The PDS keeps uploaded blobs and serves them with com.atproto.sync.getBlob")
struct BlobTests {
    /// `count` random bytes: ChaCha20's keystream under a new key, quick even in a debug build.
    static func randomBlob(_ count: Int) throws -> Data {
        try ChaChaPoly.seal(Data(count: count), using: SymmetricKey(size: .bits256)).ciphertext
    }

    /// Uploads `blob` as `contentType` with the client's DPoP-bound token; returns the CID of its blob reference.
    static func upload(_ signedIn: SignedInClient, _ blob: Data, contentType: String) async throws -> String {
        let response = try await signedIn.client.xrpc(
            .post,
            "com.atproto.repo.uploadBlob",
            body: blob,
            contentType: contentType,
            accessToken: signedIn.tokens.accessToken
        )
        #expect(response.status == 200, "uploadBlob failed: \(response.text)")
        let reference = try #require(try response.json()["blob"] as? [String: Any])
        #expect(reference["size"] as? Int == blob.count)
        #expect(reference["mimeType"] as? String == contentType)
        let link = try #require(reference["ref"] as? [String: Any])
        return try #require(link["$link"] as? String)
    }

    /// A `getBlob` request without any authentication.
    static func getBlob(_ signedIn: SignedInClient, _ query: [(String, String)]) throws -> HTTPRequest {
        try signedIn.client.xrpcRequest(.get, "com.atproto.sync.getBlob", query: query)
    }

    @Test("a 20 MiB blob uploaded with a DPoP-bound token comes back whole from an unauthenticated getBlob")
    func largeBlobRoundTrip() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let blob = try Self.randomBlob(20 << 20)
            let cid = try await Self.upload(signedIn, blob, contentType: "application/octet-stream")
            #expect(cid.hasPrefix("bafkrei"))

            let request = try Self.getBlob(signedIn, [("did", signedIn.tokens.subject), ("cid", cid)])
            // The harness's transport reads at most 1 MiB of an answer.
            let response = try await AsyncHTTPClientTransport.withTransport(
                configuration: .init(maximumResponseBytes: 32 << 20)
            ) { transport in
                try await transport.send(request)
            }
            #expect(response.status == 200)
            #expect(response.body.count == blob.count)
            #expect(SHA256.hash(data: response.body) == SHA256.hash(data: blob))
            #expect(response.headers["Content-Type"] == "application/octet-stream")
            #expect(response.headers.values(for: "Content-Length") == [String(20 << 20)])
            #expect(response.headers["X-Content-Type-Options"] == "nosniff")
            #expect(response.headers["DPoP-Nonce"] == nil, "an unauthenticated answer needs no nonce")
            #expect(sandbox.server.counters.blobsServed == 1)
        }
    }

    @Test("getBlob with a DPoP-bound token is checked as other methods are, and answers with the PDS's nonce")
    func authenticatedGetBlob() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
            let cid = try await Self.upload(signedIn, png, contentType: "image/png")
            let query = [("did", signedIn.tokens.subject), ("cid", cid)]

            let response = try await signedIn.client.xrpc(
                .get,
                "com.atproto.sync.getBlob",
                query: query,
                accessToken: signedIn.tokens.accessToken
            )
            #expect(response.status == 200)
            #expect(response.body == png)
            #expect(response.headers["Content-Type"] == "image/png")
            let nonce = try #require(response.headers["DPoP-Nonce"])
            #expect(nonce == signedIn.pdsNonce)

            let url = try Self.getBlob(signedIn, query).url
            var unknownToken = try Self.getBlob(signedIn, query)
            unknownToken.headers.add(name: "Authorization", value: "DPoP not-a-token")
            unknownToken.headers.add(
                name: "DPoP",
                value: try signedIn.client.proof(.get, url, nonce: nonce, accessToken: "not-a-token")
            )
            let refused = try await signedIn.client.send(unknownToken)
            #expect(refused.status == 401)
            #expect(refused.errorCode == "InvalidToken")
            #expect(refused.dpopChallenge?["error"] == "invalid_token")
            #expect(refused.headers["DPoP-Nonce"] != nil)
            #expect(sandbox.server.counters.rejections(.invalidToken) == 1)

            var otherKey = try Self.getBlob(signedIn, query)
            otherKey.headers.add(name: "Authorization", value: "DPoP \(signedIn.tokens.accessToken)")
            otherKey.headers.add(
                name: "DPoP",
                value: try signedIn.client.proof(
                    .get,
                    url,
                    nonce: nonce,
                    accessToken: signedIn.tokens.accessToken,
                    key: DPoPKey()
                )
            )
            #expect(try await signedIn.client.send(otherKey).status == 401)
            #expect(sandbox.server.counters.rejections(.dpopKeyMismatch) == 1)
            #expect(sandbox.server.counters.blobsServed == 1)
        }
    }

    @Test("getBlob answers 400 for missing parameters, an unknown DID, and an unknown or another account's blob")
    func getBlobErrors() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let cid = try await Self.upload(signedIn, Data("hello".utf8), contentType: "text/plain")
            let alice = signedIn.tokens.subject
            let bob = try #require(sandbox.server.configuration.account(for: "bob.test")).did
            let unknownCID = "bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy"
            let cases: [(query: [(String, String)], error: String)] = [
                ([("did", alice)], "InvalidRequest"),
                ([("cid", cid)], "InvalidRequest"),
                ([("did", "alice.test"), ("cid", cid)], "InvalidRequest"),
                ([("did", "did:plc:nobodyishostedhere"), ("cid", cid)], "RepoNotFound"),
                ([("did", alice), ("cid", unknownCID)], "BlobNotFound"),
                ([("did", bob), ("cid", cid)], "BlobNotFound"),
            ]
            for (query, error) in cases {
                let response = try await signedIn.client.send(try Self.getBlob(signedIn, query))
                #expect(response.status == 400, "\(query)")
                #expect(response.errorCode == error, "\(query): \(response.text)")
            }
            var post = try Self.getBlob(signedIn, [("did", alice), ("cid", cid)])
            post.method = .post
            #expect(try await signedIn.client.send(post).status == 400)
            #expect(sandbox.server.counters.blobsServed == 0)
        }
    }

    @Test("the PDS reads a body of up to 64 MiB and answers a larger one 413; the authorization server stops at 1 MiB")
    func bodyCaps() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let tooLarge = try await signedIn.client.xrpc(
                .post,
                "com.atproto.repo.uploadBlob",
                body: Data(count: 65 << 20),
                contentType: "application/octet-stream",
                accessToken: signedIn.tokens.accessToken
            )
            #expect(tooLarge.status == 413)
            #expect(tooLarge.errorCode == "PayloadTooLarge")
            let cid = try await Self.upload(signedIn, Data(count: 17 << 20), contentType: "application/octet-stream")
            #expect(cid.hasPrefix("bafkrei"), "a body past the former 16 MiB cap is taken")

            let settings = HTTPRequest(
                method: .post,
                url: sandbox.endpoints.authorizationServer.appending(path: "_sandbox/settings"),
                headers: ["Content-Type": "application/json"],
                body: Data(count: (1 << 20) + 1)
            )
            let refused = try await sandbox.transport.send(settings)
            #expect(refused.status == 413)
            #expect(refused.errorCode == "PayloadTooLarge")
        }
    }
}
