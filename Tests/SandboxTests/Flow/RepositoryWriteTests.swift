import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("Repository writes are refused as the reference PDS refuses them")
struct RepositoryWriteTests {
    @Test("a delete whose swapRecord is not the record's CID is 400 InvalidSwap and deletes nothing")
    func staleSwapRecord() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let record: [String: Any] = ["repo": "alice.test", "collection": "com.example.note", "rkey": "keep"]
            let created = try await signedIn.post(
                "com.atproto.repo.createRecord",
                record.merging(["record": ["text": "keep me"]]) { $1 }
            )
            let cid = try #require(try created.json()["cid"] as? String)
            for swap in ["bafyreiaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "not a cid"] {
                let stale = try await signedIn.post(
                    "com.atproto.repo.deleteRecord",
                    record.merging(["swapRecord": swap]) { $1 }
                )
                #expect(stale.status == 400)
                #expect(stale.errorCode == "InvalidSwap")
            }
            let kept = try await signedIn.client.xrpc(
                .get,
                "com.atproto.repo.getRecord",
                query: [("repo", "alice.test"), ("collection", "com.example.note"), ("rkey", "keep")],
                accessToken: signedIn.tokens.accessToken
            )
            #expect(kept.status == 200, "the record is still there: \(kept.text)")
            let deleted = try await signedIn.post(
                "com.atproto.repo.deleteRecord",
                record.merging(["swapRecord": cid]) { $1 }
            )
            #expect(deleted.status == 200, "\(deleted.text)")
        }
    }

    @Test("a write to another account's repository is 401 AuthRequired")
    func anotherRepository() async throws {
        try await withSandbox { sandbox in
            let refused = try await SignedInClient(sandbox).post(
                "com.atproto.repo.createRecord",
                ["repo": "bob.test", "collection": "com.example.note", "record": ["text": "not mine"]]
            )
            #expect(refused.status == 401)
            #expect(refused.errorCode == "AuthRequired")
        }
    }

    @Test(
        "an input over the reference PDS's limit is 413: createRecord over 1,000,000 bytes, deleteRecord over 150 KiB"
    )
    func inputLimits() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let padding = String(repeating: "x", count: 1_000_000)
            let record = try await signedIn.post(
                "com.atproto.repo.createRecord",
                ["repo": "alice.test", "collection": "com.example.note", "record": ["text": padding]]
            )
            #expect(record.status == 413)
            #expect(record.errorCode == "PayloadTooLarge")
            let delete = try await signedIn.post(
                "com.atproto.repo.deleteRecord",
                [
                    "repo": "alice.test", "collection": "com.example.note", "rkey": "a",
                    "pad": String(padding.prefix(160 * 1024)),
                ]
            )
            #expect(delete.status == 413)
        }
    }
}
