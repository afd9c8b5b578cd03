import ATClient
import ATOAuthTesting
import ATProtoPermissions
import ATProtoSyntax
import AccountManager
import Foundation
import HTTPTransport
import Keystore
import OAuthSessionManager
import Sandbox
import Testing

@Suite("Forwarded calls: bodies streamed, answers passed on whatever their status")
struct ForwardingTests {
    @Test("a blob goes out streamed as the account its repo names; the answer comes back as the PDS gave it")
    func streamedBlob() async throws {
        try await SandboxWorld.with { flow in
            let accounts = flow.accounts()
            let session = try await flow.signIn(with: accounts)
            let blob = Data.patterned(2 << 20, step: 13)
            let forwarded = try await accounts.client().forward(try Self.upload(blob))
            #expect(forwarded.account == session.did)
            #expect(forwarded.response.status == 200)
            let answer = try await forwarded.response.body.collect(upTo: 1 << 16)
            let object = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
            let reference = try #require(object["blob"] as? [String: Any])
            #expect(reference["size"] as? Int == blob.count)
        }
    }

    @Test("an error answer is returned, not thrown, with its status and body")
    func errorPassedOn() async throws {
        try await SandboxWorld.with { flow in
            let accounts = flow.accounts()
            let session = try await flow.signIn(with: accounts)
            var request = XRPCForwardedRequest(nsid: try NSID(validating: "com.atproto.repo.getRecord"), method: .get)
            request.percentEncodedQuery = "repo=\(session.did.rawValue)&collection=app.bsky.feed.post&rkey=none"
            request.parameters = [
                ("repo", session.did.rawValue), ("collection", "app.bsky.feed.post"), ("rkey", "none"),
            ]
            let forwarded = try await accounts.client().forward(request)
            #expect(forwarded.response.status == 400)
            let body = String(decoding: try await forwarded.response.body.collect(upTo: 4096), as: UTF8.self)
            #expect(body.contains("RecordNotFound"))
        }
    }

    @Test("a refused access token is refreshed once and the streamed body sent again whole")
    func invalidTokenRetrySendsBodyAgain() async throws {
        try await SandboxWorld.with { flow in
            let accounts = flow.accounts()
            let session = try await flow.signInWithRefusedAccessToken(activeIn: accounts)
            let record = Data(
                #"{"repo":"\#(session.did.rawValue)","collection":"app.bsky.feed.post","record":{"text":"hi"}}"#.utf8
            )
            var request = XRPCForwardedRequest(
                nsid: try NSID(validating: "com.atproto.repo.createRecord"),
                method: .post,
                body: .bytes(record),
                contentType: "application/json"
            )
            request.inspectableBody = record
            let forwarded = try await accounts.client().forward(request)
            #expect(forwarded.response.status == 200)
            #expect(flow.server.counters.refreshGrantsSucceeded == 1)
        }
    }

    @Test(
        "a streamed call's 401 invalid_token is told by its header, however long its body: refreshed, sent again",
        arguments: [100, 100_000]  // The refusal's body: short, or past the 64 KiB read ahead.
    )
    func invalidTokenToldByHeader(bodySize: Int) async throws {
        let handler: LoopbackHTTPServer.Handler = { _ in
            var refusal = ScriptedResponse.json(
                #"{"error":"InvalidToken"}"# + String(repeating: " ", count: bodySize),
                status: 401
            )
            refusal.headers.append(("WWW-Authenticate", #"DPoP error="invalid_token""#))
            return refusal
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { pds in
            try await SandboxWorld.with { flow in
                let accounts = flow.accounts()
                var session = try await flow.signIn(with: flow.sessions())
                try await accounts.switchTo(.did(session.did))
                session.pds = pds.url("/")
                try flow.keystore.save(try storedForm(session), as: Session.entryName(did: session.did))
                let blob = Data(repeating: 7, count: 1000)
                let forwarded = try await accounts.client().forward(try Self.upload(blob))
                #expect(forwarded.response.status == 200)
                #expect(flow.server.counters.refreshGrantsSucceeded == 1)
                // The refresh finds the account's PDS again from its DID document: the retry went to the sandbox's.
                #expect(pds.requests.map(\.body) == [blob])
            }
        }
    }

    @Test("a fallback account is used when neither the caller nor the repo names one")
    func fallback() async throws {
        try await SandboxWorld.with { flow in
            let accounts = flow.accounts()
            let alice = try await flow.signIn(with: accounts)
            let forwarded = try await accounts.client().forward(
                XRPCForwardedRequest(nsid: try NSID(validating: "com.atproto.server.getSession"), method: .get),
                otherwise: .did(alice.did)
            )
            #expect(forwarded.account == alice.did)
            await #expect(throws: AccountError.self) {
                try await accounts.client().forward(
                    XRPCForwardedRequest(nsid: try NSID(validating: "com.atproto.server.getSession"), method: .get),
                    otherwise: .handle(try Handle(validating: "nobody.test"))
                )
            }
        }
    }

    @Test("a preflight routes and checks without sending: the account it would go out as, or why it would not go")
    func preflight() async throws {
        try await SandboxWorld.with { flow in
            let accounts = flow.accounts()
            let alice = try await flow.signIn(with: accounts)
            let upload = XRPCForwardedRequest(
                nsid: try NSID(validating: "com.atproto.repo.uploadBlob"),
                method: .post,
                contentType: "image/png"
            )
            let sentBefore = flow.server.counters.xrpcRequestHeadsReceived
            #expect(try await accounts.client().preflight(upload) == alice.did)
            let bob = ATIdentifier.handle(try Handle(validating: "bob.test"))
            let refused = await #expect(throws: AccountError.self) {
                try await accounts.client().preflight(upload, as: bob)
            }
            #expect(refused?.code == .noSuchAccount)
            var reserved = upload
            reserved.headers = ["DPoP": "forged"]
            await #expect(throws: XRPCRequestError.self) { try await accounts.client().preflight(reserved) }
            #expect(flow.server.counters.xrpcRequestHeadsReceived == sentBefore)
        }
    }

    /// An `uploadBlob` of `blob`, streamed.
    static func upload(_ blob: Data) throws -> XRPCForwardedRequest {
        XRPCForwardedRequest(
            nsid: try NSID(validating: "com.atproto.repo.uploadBlob"),
            method: .post,
            body: .bytes(blob),
            contentType: "application/octet-stream"
        )
    }
}
