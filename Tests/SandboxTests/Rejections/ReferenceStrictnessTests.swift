import ATOAuthTesting
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Sandbox
import Testing

/// What the reference authorization server refuses, refused here too, so that a client tested against the sandbox
/// does not fail against Bluesky.
@Suite("Authorization server strictness")
struct ReferenceStrictnessTests {
    @Test("a token is revoked only with a proof of the DPoP key it is bound to")
    func revocationTakesTheBoundKey() async throws {
        try await withSandbox { sandbox in
            let owner = sandbox.client()
            let tokens = try await owner.signIn()
            let revokeURL = owner.url(sandbox.endpoints.authorizationServer, "oauth/revoke")
            // Another key of the same client: someone who holds the token but not its key.
            let stranger = sandbox.client()
            for token in [tokens.refreshToken, tokens.accessToken] {
                let refused = try await stranger.executor.send(
                    stranger.formRequest(revokeURL, [("token", token), ("client_id", stranger.clientID)])
                )
                #expect(refused.status == 400)
                #expect(refused.errorCode == "invalid_grant")
            }
            let refreshed = try await owner.refresh(tokens.refreshToken)
            #expect(refreshed.status == 200, "the session survives: \(refreshed.text)")
            #expect(refreshed.headers["Pragma"] == "no-cache")
            #expect(refreshed.headers["Cache-Control"] == "no-store")
            let current = try Tokens(refreshed)
            let revoked = try await owner.executor.send(
                owner.formRequest(revokeURL, [("token", current.refreshToken), ("client_id", owner.clientID)])
            )
            #expect(revoked.status == 200)
            #expect(try await owner.refresh(current.refreshToken).errorCode == "invalid_grant")
        }
    }

    @Test(
        "a scope that is not tokens one space apart is refused, requested or registered",
        arguments: ["atproto  transition:generic", " atproto", "atproto ", "atproto\ttransition:generic"]
    )
    func scopeSyntax(scope: String) async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let requested = try await client.pushedAuthorizationResponse(
                client.parParameters(FlowSecrets(), scope: scope)
            )
            #expect(requested.status == 400)
            #expect(requested.errorCode == "invalid_scope")
            #expect(requested.text.contains("RFC 6749"), "\(requested.text)")

            let registering = sandbox.client(registering: scope, asking: "atproto")
            let registered = try await registering.pushedAuthorizationResponse(registering.parParameters(FlowSecrets()))
            #expect(registered.status == 400)
            #expect(registered.errorCode == "invalid_client")

            let wellFormed = try await client.pushedAuthorizationResponse(client.parParameters(FlowSecrets()))
            #expect(wellFormed.status == 201)
        }
    }

    @Test(
        "a PAR with an OpenID Connect parameter or authorization_details is refused",
        arguments: [
            ("nonce", "n-1", "invalid_request"), ("claims", "{}", "invalid_request"),
            ("id_token_hint", "a.b.c", "invalid_request"),
            ("authorization_details", #"[{"type":"payment"}]"#, "invalid_authorization_details"),
        ]
    )
    func unsupportedParameters(name: String, value: String, error: String) async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let response = try await client.pushedAuthorizationResponse(
                client.parParameters(FlowSecrets()) + [(name, value)]
            )
            #expect(response.status == 400)
            #expect(response.errorCode == error)
            #expect(response.text.contains(name))
        }
    }

    @Test("a request_uri opened with another client_id is gone, and its page says whose it was")
    func requestOpenedByAnotherClient() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let requestURI = try await client.pushAuthorization(FlowSecrets())
            let other = sandbox.client(registering: "atproto")
            let opened = try await other.openAuthorization(requestURI: requestURI)
            #expect(opened.status == 400)
            #expect(opened.text.contains("This sign-in page belongs to another application"))
            let again = try await client.openAuthorization(requestURI: requestURI)
            #expect(again.status == 400)
            #expect(again.headers["Location"] == nil)
            #expect(again.text.contains("This sign-in page is not known"))
        }
    }
}
