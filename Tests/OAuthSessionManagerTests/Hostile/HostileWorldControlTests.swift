import ATOAuthTesting
import ATProtoSyntax
import Foundation
import Keystore
import OAuthSessionManager
import Testing

/// The honest world signs in: proof that each hostile scenario fails because of its one hostile piece.
@Suite("The hostile world, left honest, signs in", .timeLimit(.minutes(1)))
struct HostileWorldControlTests {
    @Test("alice signs in from her handle, after one DPoP nonce challenge on the PAR")
    func honestSignIn() async throws {
        try await HostileScene.run { scene in
            let session = try await scene.signIn()
            #expect(session.did.rawValue == HostileScript.aliceDID)
            #expect(session.handle?.rawValue == HostileScript.aliceHandle)
            #expect(session.pds.absoluteString == scene.origin)
            #expect(session.issuer == scene.origin)
            #expect(
                try scene.keystore.names() == [
                    "dpop-key/\(HostileScript.aliceDID)", "session/\(HostileScript.aliceDID)",
                ]
            )
            let pushed = scene.requests(to: "/oauth/par")
            #expect(pushed.map(HostileWorld.proofNonce) == [nil, HostileWorld.nonce])
            let form = HostileWorld.form(String(decoding: pushed.last?.body ?? Data(), as: UTF8.self))
            #expect(form["login_hint"] == HostileScript.aliceHandle)
            #expect(scene.requests(to: "/oauth/token").count == 1)
            #expect(scene.world.revocations.isEmpty)
        }
    }

    @Test("alice signs in from her DID and from her PDS URL, and bob at the other issuer")
    func otherInputs() async throws {
        try await HostileScene.run { scene in
            for input in [HostileScript.aliceDID, scene.origin] {
                let session = try await scene.signIn(input)
                #expect(session.did.rawValue == HostileScript.aliceDID)
                #expect(session.issuer == scene.origin)
            }
            let bob = try await scene.signIn(HostileScript.bobHandle)
            #expect(bob.did.rawValue == HostileScript.bobDID)
            #expect(bob.pds.absoluteString == scene.otherOrigin)
            #expect(bob.issuer == scene.otherOrigin)
            #expect(try await scene.manager.storedSessions().count == 2)
            // alice's second sign-in replaced her first session and revoked its grant; nothing else was revoked.
            #expect(scene.world.revocations.map(\.hint) == ["refresh_token", "access_token"])
            #expect(scene.world.revocations.allSatisfy { $0.origin == scene.origin })
        }
    }
}
