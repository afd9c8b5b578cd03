import ATProtoSyntax
import Failures
import Foundation
import Keystore
import OAuthMetadata
import OAuthSessionManager
import Testing

/// The redirect back to the client is missing its `iss`, names another issuer, carries a `state` the client never
/// sent, is replayed, or reports an error (RFC 6749 §4.1.2, RFC 9207 §2): the code is never exchanged, and nothing is stored.
@Suite("Hostile callbacks are refused before the code is exchanged", .timeLimit(.minutes(1)))
struct HostileCallbackTests {
    @Test("a callback without iss is refused, and its state is used up")
    func missingIssuer() async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.callbackIssuer = .omitted }
            let callback = try await scene.approve(try await scene.start())
            #expect(HostileWorld.form(callback.query ?? "")["iss"] == nil)
            let error = await #expect(throws: SessionError.self) {
                try await scene.manager.completeSignIn(callbackURL: callback)
            }
            expectRefusal(error, .issuerMismatch(""))
            scene.expectNoTokenRequest()
            try scene.expectNothingStored()
        }
    }

    @Test("a callback whose iss is another issuer is refused, and its state is used up")
    func otherIssuer() async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.callbackIssuer = .claimed($0.otherOrigin) }
            let callback = try await scene.approve(try await scene.start())
            let error = await #expect(throws: SessionError.self) {
                try await scene.manager.completeSignIn(callbackURL: callback)
            }
            expectRefusal(error, .issuerMismatch(""))
            scene.expectNoTokenRequest()
            try scene.expectNothingStored()
        }
    }

    @Test("a callback with a state the client never sent is refused, and the real sign-in can still complete")
    func unknownState() async throws {
        try await HostileScene.run { scene in
            let request = try await scene.start()
            // A state longer than a keystore entry name may be is unknown too, not a keystore error.
            for state in ["forged-state", String(repeating: "a", count: 300)] {
                let forged = try scene.callback([("code", "forged-code"), ("state", state), ("iss", scene.origin)])
                let error = await #expect(throws: SessionError.self) {
                    try await scene.manager.completeSignIn(callbackURL: forged)
                }
                expectRefusal(error, .unknownState)
            }
            scene.expectNoTokenRequest()
            #expect(try scene.keystore.names() == ["pending/\(request.state)"])

            let session = try await scene.manager.completeSignIn(callbackURL: try await scene.approve(request)).session
            #expect(session.did.rawValue == HostileScript.aliceDID)
        }
    }

    @Test("the sign-in's own callback arriving at another path or port is refused, and no code is exchanged")
    func callbackAtAnotherEndpoint() async throws {
        for other in ["/copy-address", ":8080/callback"] {
            try await HostileScene.run { scene in
                let callback = try await scene.approve(try await scene.start())
                let redirect = scene.client.redirectURI.absoluteString
                let moved =
                    other.hasPrefix("/")
                    ? redirect.replacingOccurrences(of: "/callback", with: other)
                    : redirect.replacingOccurrences(of: "/callback", with: "").replacingOccurrences(
                        of: #":\d+$"#,
                        with: "",
                        options: .regularExpression
                    ) + other
                let elsewhere = try #require(URL(string: moved + "?" + (callback.query ?? "")))
                let error = await #expect(throws: SessionError.self) {
                    try await scene.manager.completeSignIn(callbackURL: elsewhere)
                }
                expectRefusal(error, .invalidCallback(""))
                scene.expectNoTokenRequest()
            }
        }
    }

    @Test("the same callback completed twice is refused the second time as an unknown state")
    func replayedCallback() async throws {
        try await HostileScene.run { scene in
            let callback = try await scene.approve(try await scene.start())
            let session = try await scene.manager.completeSignIn(callbackURL: callback).session
            let stored = try scene.keystore.names()

            let error = await #expect(throws: SessionError.self) {
                try await scene.manager.completeSignIn(callbackURL: callback)
            }
            expectRefusal(error, .unknownState)
            #expect(scene.requests(to: "/oauth/token").count == 1)
            #expect(try scene.keystore.names() == stored)
            #expect(try await scene.manager.storedSessions().map(\.accessToken) == [session.accessToken])
            #expect(scene.world.revocations.isEmpty)
        }
    }

    @Test("an access_denied callback surfaces the server's description, and nothing is stored")
    func accessDenied() async throws {
        let description = "The user declined the request"
        try await HostileScene.run { scene in
            scene.hostile { $0.authorizationError = ("access_denied", description) }
            let callback = try await scene.approve(try await scene.start())
            let error = await #expect(throws: SessionError.self) {
                try await scene.manager.completeSignIn(callbackURL: callback)
            }
            #expect(error?.code == .authorizationFailed)
            #expect(error?.category == .failed)
            #expect(error?.serverError == .accessDenied)
            #expect(error?.serverErrorDescription == description)
            #expect(error?.description.contains(description) == true)
            scene.expectNoTokenRequest()
            try scene.expectNothingStored()
        }
    }
}
