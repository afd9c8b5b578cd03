import ATProtoSyntax
import Foundation
import OAuthSessionManager
import Testing

/// `Session.endsAtLatest`: the earlier of the session's ceiling from sign-in and its refresh token's expiry from the
/// last refresh (atproto.com/specs/oauth, Tokens and Session Lifetime), as the reference server ends sessions.
@Suite("A session ends at the earlier of its ceiling and its refresh token's expiry")
struct SessionLifetimeTests {
    static let signedIn = Date(timeIntervalSince1970: 1_800_000_000)
    static let day: TimeInterval = 86_400

    /// An OAuth session signed in at ``signedIn`` and refreshed `refreshedAfter` seconds later, of a confidential
    /// client when `clientKeyID` is given; `refreshTokenLifetime` is what the server said, counted from the refresh.
    static func session(
        clientKeyID: String?,
        refreshedAfter: TimeInterval = 0,
        refreshTokenLifetime: TimeInterval? = nil
    ) throws -> Session {
        let refreshed = signedIn.addingTimeInterval(refreshedAfter)
        return Session(
            did: try DID(validating: "did:plc:ewvi7nxzyoun6zhxrhs64oiz"),
            handle: nil,
            pds: try #require(URL(string: "https://pds.example")),
            scope: "atproto",
            accessToken: "secret-access",
            accessTokenExpiresAt: nil,
            refreshToken: "secret-refresh",
            refreshTokenExpiresAt: refreshTokenLifetime.map { refreshed.addingTimeInterval($0) },
            createdAt: signedIn,
            updatedAt: refreshed,
            credential: .oauth(
                OAuthGrant(
                    issuer: "https://auth.example",
                    clientID: "https://app.example/client-metadata.json",
                    tokenEndpoint: try #require(URL(string: "https://auth.example/oauth/token")),
                    revocationEndpoint: nil,
                    clientKeyID: clientKeyID
                )
            )
        )
    }

    @Test("A confidential session ends three months after its last refresh, and two years after sign-in at most")
    func confidential() throws {
        #expect(Session.confidentialClientRefreshToken == 7_889_400, "a quarter of a 365.25-day year")
        #expect(Session.confidentialClientSession == 63_115_200, "two 365.25-day years")
        let fresh = try Self.session(clientKeyID: "k1")
        #expect(fresh.endsAtLatest == Self.signedIn.addingTimeInterval(Session.confidentialClientRefreshToken))
        #expect(fresh.endIsRenewedByRefresh)

        let refreshed = try Self.session(clientKeyID: "k1", refreshedAfter: 400 * Self.day)
        let expected = Self.signedIn.addingTimeInterval(400 * Self.day + Session.confidentialClientRefreshToken)
        #expect(refreshed.endsAtLatest == expected)
        #expect(refreshed.endIsRenewedByRefresh)

        // Refreshed late in its life: the session's own ceiling comes first, and no refresh moves it.
        let late = try Self.session(clientKeyID: "k1", refreshedAfter: 700 * Self.day)
        #expect(late.endsAtLatest == Self.signedIn.addingTimeInterval(Session.confidentialClientSession))
        #expect(!late.endIsRenewedByRefresh)
    }

    @Test("A refresh token expiry the server gave counts instead of the profile's lifetime")
    func serverGivenExpiry() throws {
        let confidential = try Self.session(
            clientKeyID: "k1",
            refreshedAfter: 10 * Self.day,
            refreshTokenLifetime: 7 * Self.day
        )
        #expect(confidential.endsAtLatest == Self.signedIn.addingTimeInterval(17 * Self.day))
        let shortPublic = try Self.session(clientKeyID: nil, refreshTokenLifetime: Self.day)
        #expect(shortPublic.endsAtLatest == Self.signedIn.addingTimeInterval(Self.day))
        #expect(shortPublic.endIsRenewedByRefresh)
        let longPublic = try Self.session(clientKeyID: nil, refreshTokenLifetime: 90 * Self.day)
        #expect(longPublic.endsAtLatest == Self.signedIn.addingTimeInterval(14 * Self.day), "the ceiling still holds")
    }

    @Test("A public client's session ends two weeks after sign-in, however often it is refreshed")
    func publicClient() throws {
        for after in [0, Self.day, 13 * Self.day] {
            let session = try Self.session(clientKeyID: nil, refreshedAfter: after)
            #expect(session.endsAtLatest == Self.signedIn.addingTimeInterval(14 * Self.day))
            #expect(!session.endIsRenewedByRefresh)
        }
    }

    @Test("The stored form keeps the refresh token's expiry, and a session stored without one reads without it")
    func stored() throws {
        let session = try Self.session(clientKeyID: "k1", refreshTokenLifetime: 3_600)
        let data = try JSONEncoder().encode(session)
        let decoded = try JSONDecoder().decode(Session.self, from: data)
        #expect(decoded.refreshTokenExpiresAt == session.refreshTokenExpiresAt)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["refreshTokenExpiresAt"] = nil
        let older = try JSONDecoder().decode(Session.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(older.refreshTokenExpiresAt == nil)
        #expect(older.endsAtLatest == Self.signedIn.addingTimeInterval(Session.confidentialClientRefreshToken))
    }
}
