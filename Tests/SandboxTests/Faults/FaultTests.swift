import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("Injected faults")
struct FaultTests {
    @Test("refreshServerError answers 500 a set number of times and keeps the refresh token valid")
    func refreshServerError() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let tokens = try await client.signIn()
            sandbox.server.updateConfiguration { $0.faults.refreshServerError = .times(2) }
            for _ in 0..<2 {
                let failed = try await client.refresh(tokens.refreshToken)
                #expect(failed.status == 500)
                #expect(failed.errorCode == "server_error")
                #expect(failed.headers["DPoP-Nonce"] != nil)
            }
            let succeeded = try await client.refresh(tokens.refreshToken)
            #expect(succeeded.status == 200)
            #expect(sandbox.server.counters.injectedRefreshFailures == 2)
            #expect(sandbox.server.counters.refreshGrantsSucceeded == 1)
            #expect(sandbox.server.configuration.faults.refreshServerError == .off)

            sandbox.server.updateConfiguration { $0.faults.refreshServerError = .always }
            let rotated = try Tokens(succeeded)
            #expect(try await client.refresh(rotated.refreshToken).status == 500)
            sandbox.server.updateConfiguration { $0.faults.refreshServerError = .off }
            #expect(try await client.refresh(rotated.refreshToken).status == 200)
        }
    }

    @Test("with a new nonce on every response, an old nonce is refused and one retry with the new one succeeds")
    func newNonceOnEveryResponse() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            sandbox.server.updateConfiguration { $0.faults.newNonceOnEveryResponse = true }
            sandbox.server.resetCounters()

            // One client calling in sequence always holds the newest nonce: no challenge.
            for _ in 0..<3 {
                let response = try await signedIn.client.xrpc(
                    .get,
                    "com.atproto.server.getSession",
                    accessToken: signedIn.tokens.accessToken
                )
                #expect(response.status == 200)
            }
            #expect(sandbox.server.counters.nonceChallengesSent == 0)

            // Another client's two requests make this client's nonce the previous-previous one.
            let heldNonce = try #require(signedIn.pdsNonce)
            let other = try await SignedInClient(sandbox)
            _ = try await other.client.xrpc(
                .get,
                "com.atproto.server.getSession",
                accessToken: other.tokens.accessToken
            )
            let stale = try signedIn.client.proof(
                .get,
                signedIn.getSessionURL,
                nonce: heldNonce,
                accessToken: signedIn.tokens.accessToken
            )
            let challenged = try await signedIn.getSession(proof: stale)
            #expect(challenged.status == 401)
            #expect(challenged.dpopChallenge?["error"] == "use_dpop_nonce")
            let given = try #require(challenged.headers["DPoP-Nonce"])
            let retry = try signedIn.client.proof(
                .get,
                signedIn.getSessionURL,
                nonce: given,
                accessToken: signedIn.tokens.accessToken
            )
            let retried = try await signedIn.getSession(proof: retry)
            #expect(retried.status == 200)
            #expect(retried.headers["DPoP-Nonce"] != given)
        }
    }

    @Test("slowResponses delays every answer")
    func slowResponses() async throws {
        try await withSandbox { sandbox in
            sandbox.server.updateConfiguration { $0.faults.slowResponses = 0.3 }
            let client = sandbox.client()
            let start = ContinuousClock.now
            let response = try await client.send(
                HTTPRequest(url: client.url(sandbox.endpoints.plcDirectory, SandboxAccount(handle: "alice.test").did))
            )
            #expect(response.status == 200)
            #expect(ContinuousClock.now - start >= .milliseconds(300))
        }
    }

    @Test("auto-approve can be switched off while the server runs")
    func autoApproveAtRuntime() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            sandbox.server.updateConfiguration { $0.autoApprove = false }
            let page = try await client.openAuthorization(requestURI: try await client.pushAuthorization(FlowSecrets()))
            #expect(page.status == 200)
            #expect(page.headers["Content-Type"]?.hasPrefix("text/html") == true)
        }
    }
}
