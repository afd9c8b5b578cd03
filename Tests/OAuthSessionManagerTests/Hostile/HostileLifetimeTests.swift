import Foundation
import OAuthSessionManager
import Testing

/// The token endpoint claims a hostile `expires_in` (RFC 6749 §5.1): a lifetime that is not a positive finite number
/// is refused and both tokens revoked; an absurdly long one is capped at a day, so the expiry is a usable date.
@Suite("Hostile token lifetimes are refused or capped", .serialized, .timeLimit(.minutes(1)))
struct HostileLifetimeTests {
    @Test(
        "a lifetime that is not a positive number is refused and the tokens revoked",
        arguments: ["-5", "0", "-1e308", "-99999999999999999999999", #""3600""#, "true", "[1]"]
    )
    func refused(_ expiresIn: String) async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.tokens.expiresIn = expiresIn }
            let error = await #expect(throws: SessionError.self) { try await scene.signIn() }
            expectRefusal(error, .invalidTokenResponse(""))
            scene.expectTokensRevoked()
            try scene.expectNothingStored()
        }
    }

    @Test(
        "an absurdly long lifetime is capped at a day and the session stored",
        arguments: ["1e308", "99999999999999999999999", "9223372036854775807", "1.7976931348623157e308", "172800"]
    )
    func capped(_ expiresIn: String) async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.tokens.expiresIn = expiresIn }
            let before = Date()
            let session = try await scene.signIn()
            let expiry = try #require(session.accessTokenExpiresAt)
            #expect(expiry >= before.addingTimeInterval(86_400))
            #expect(expiry <= Date().addingTimeInterval(86_400))
        }
    }

    @Test("no lifetime at all is accepted as unknown")
    func unknown() async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.tokens.expiresIn = "null" }
            let session = try await scene.signIn()
            #expect(session.accessTokenExpiresAt == nil)
        }
    }
}
