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

    @Test("putRecord creates or replaces a record, and honours swapRecord: null for none yet, a CID for that record")
    func putRecord() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let key: [String: Any] = ["repo": "alice.test", "collection": "com.example.note", "rkey": "self"]
            func put(_ text: String, _ extra: [String: Any] = [:]) async throws -> HTTPResponse {
                try await signedIn.post(
                    "com.atproto.repo.putRecord",
                    key.merging(extra) { $1 }.merging(["record": ["text": text]]) { $1 }
                )
            }
            let created = try await put("first", ["swapRecord": NSNull()])
            #expect(created.status == 200, "\(created.text)")
            let first = try #require(try created.json()["cid"] as? String)
            #expect(
                try created.json()["uri"] as? String
                    == "at://\(SandboxAccount(handle: "alice.test").did)/com.example.note/self"
            )

            let taken = try await put("second", ["swapRecord": NSNull()])
            #expect(taken.status == 400 && taken.errorCode == "InvalidSwap", "\(taken.text)")
            #expect(try taken.json()["message"] as? String == "Record was at \(first)")
            let stale = try await put(
                "second",
                ["swapRecord": "bafyreiaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]
            )
            #expect(stale.errorCode == "InvalidSwap")
            let unchanged = try await put(
                "first",
                ["swapRecord": "bafyreiaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]
            )
            #expect(try unchanged.status == 200 && unchanged.json()["cid"] as? String == first, "\(unchanged.text)")

            let replaced = try await put("second", ["swapRecord": first])
            #expect(replaced.status == 200, "\(replaced.text)")
            let second = try #require(try replaced.json()["cid"] as? String)
            #expect(second != first)
            let stored = try await signedIn.client.xrpc(
                .get,
                "com.atproto.repo.getRecord",
                query: [("repo", "alice.test"), ("collection", "com.example.note"), ("rkey", "self")],
                accessToken: signedIn.tokens.accessToken
            )
            #expect(try stored.json()["cid"] as? String == second)
            #expect((try stored.json()["value"] as? [String: Any])?["text"] as? String == "second")

            let mistyped = try await signedIn.post(
                "com.atproto.repo.putRecord",
                key.merging(["record": ["$type": "com.example.other", "text": "x"]]) { $1 }
            )
            #expect(mistyped.status == 400 && mistyped.errorCode == "InvalidRequest")
            let message = try mistyped.json()["message"] as? String
            #expect(message == "Invalid $type: expected com.example.note, got com.example.other")
        }
    }

    @Test("putRecord needs both the create and the update permission, whether the record exists or not")
    func putRecordScope() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client(registering: "atproto repo:com.example.note?action=create")
            let tokens = try await client.signIn()
            let answer = try await client.xrpc(
                .post,
                "com.atproto.repo.putRecord",
                json: ["repo": "alice.test", "collection": "com.example.note", "rkey": "a", "record": ["text": "x"]],
                accessToken: tokens.accessToken
            )
            #expect(answer.status == 403 && answer.errorCode == "ScopeMissingError", "\(answer.text)")
            let message = try answer.json()["message"] as? String
            #expect(message == #"Missing required scope "repo:com.example.note?action=update""#)
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
