import ATProtoSyntax
import Foundation
import OAuthSessionManager
import Testing

/// The token endpoint issues tokens that fail a client-side check (atproto.com/specs/oauth, Authorization Flow): the sign-in is refused,
/// the issuer is asked to revoke both tokens, and nothing is stored.
@Suite("Hostile token responses are refused and revoked", .timeLimit(.minutes(1)))
struct HostileTokenTests {
    /// Runs a whole sign-in from `input` and returns its error.
    func failedSignIn(_ scene: HostileScene, from input: String = HostileScript.aliceHandle) async -> SessionError? {
        await #expect(throws: SessionError.self) { try await scene.signIn(input) }
    }

    @Test("a Bearer token response is refused and its tokens revoked")
    func bearerTokens() async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.tokens.tokenType = "Bearer" }
            expectRefusal(await failedSignIn(scene), .invalidTokenResponse(""))
            scene.expectTokensRevoked()
            try scene.expectNothingStored()
        }
    }

    @Test("an authorization server that never issues a DPoP nonce is refused and its tokens revoked")
    func noServerNonce() async throws {
        try await HostileScene.run { scene in
            scene.hostile {
                $0.demandsDPoPNonce = false
                $0.issuesDPoPNonces = false
            }
            expectRefusal(await failedSignIn(scene), .dpopFailed(""))
            scene.expectTokensRevoked()
            try scene.expectNothingStored()
        }
    }

    @Test("a server that sends its nonce only with the use_dpop_nonce challenge, never again, is signed in to")
    func nonceOnlyInChallenge() async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.issuesDPoPNonces = false }
            let session = try await scene.signIn()
            #expect(session.did.rawValue == HostileScript.aliceDID)
        }
    }

    @Test("a token response whose scope lacks atproto is refused and its tokens revoked")
    func scopeWithoutATProto() async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.tokens.scope = "transition:generic" }
            expectRefusal(await failedSignIn(scene), .invalidTokenResponse(""))
            scene.expectTokensRevoked()
            try scene.expectNothingStored()
        }
    }

    @Test("tokens for another DID than the one sign-in started from are refused and revoked")
    func subjectOfAnotherDID() async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.tokens.sub = HostileScript.bobDID }
            let error = await failedSignIn(scene)
            expectRefusal(error, .subjectMismatch(""))
            #expect(error?.description.contains(HostileScript.bobDID) == true)
            scene.expectTokensRevoked()
            try scene.expectNothingStored()
        }
    }

    @Test("tokens whose sub lives on a PDS of another issuer are refused and revoked at the issuing server")
    func subjectServedByAnotherIssuer() async throws {
        // Sign-in starts from the PDS URL, as with an entryway, so no DID is expected; bob's PDS has its own issuer.
        try await HostileScene.run { scene in
            scene.hostile { $0.tokens.sub = HostileScript.bobDID }
            let error = await failedSignIn(scene, from: scene.origin)
            expectRefusal(error, .issuerNotConfirmed(""))
            #expect(error?.description.contains(scene.otherOrigin) == true)
            #expect(scene.requests(to: "/\(HostileScript.bobDID)").count == 1)
            scene.expectTokensRevoked()
            try scene.expectNothingStored()
        }
    }

    @Test("an account that moved to another issuer's PDS during sign-in is refused, re-resolved without the cache")
    func accountMovedDuringSignIn() async throws {
        try await HostileScene.run { scene in
            let callback = try await scene.approve(try await scene.start())
            scene.world.update { $0.documents[HostileScript.aliceDID]?.pds = $0.otherOrigin }
            let error = await #expect(throws: SessionError.self) {
                try await scene.manager.completeSignIn(callbackURL: callback)
            }
            expectRefusal(error, .issuerNotConfirmed(""))
            #expect(scene.requests(to: "/\(HostileScript.aliceDID)").count == 2)
            scene.expectTokensRevoked()
            try scene.expectNothingStored()
        }
    }
}
