import Failures
import Foundation
import Testing

@testable import ATProtoIdentity
@testable import ATProtoSyntax
@testable import HTTPTransport
@testable import OAuthSessionManager

@Suite("Callback and token response checks")
struct CallbackAndTokenTests {
    let issuer = "https://auth.example.com"

    func parameters(_ query: String) throws -> CallbackParameters {
        try CallbackParameters(callbackURL: try #require(URL(string: "http://127.0.0.1:1234/callback?\(query)")))
    }

    @Test("a good callback yields its code")
    func goodCallback() throws {
        let code = try parameters("code=abc&state=s1&iss=https%3A%2F%2Fauth.example.com").validatedCode(
            expectedIssuer: issuer
        )
        #expect(code == "abc")
    }

    @Test(
        "a missing or different iss is a security failure",
        arguments: [
            "code=abc&state=s1", "code=abc&state=s1&iss=https%3A%2F%2Fevil.example",
            "code=a&state=s&iss=https%3A%2F%2FAUTH.example.com",
        ]
    )
    func issuer(query: String) throws {
        let error = #expect(throws: SessionError.self) { try parameters(query).validatedCode(expectedIssuer: issuer) }
        #expect(error?.category == .securityCheckFailed)
        #expect(error?.field == "iss")
    }

    @Test(
        "a callback counts as arriving at its redirect URI only at the same endpoint, a native app's scheme included",
        arguments: [
            ("http://127.0.0.1:1234/callback?code=c&state=s", "http://127.0.0.1:1234/callback", true),
            ("HTTP://LOCALHOST:80/callback?code=c", "http://localhost/callback", true),
            ("https://app.example.com/oauth/callback#x", "https://app.example.com:443/oauth/callback", true),
            ("com.example.app:/callback?code=c&state=s", "com.example.app:/callback", true),
            ("COM.Example.App:/callback?code=c", "com.example.app:/callback", true),
            ("http://127.0.0.1:1234/copy-address?code=c", "http://127.0.0.1:1234/callback", false),
            ("http://127.0.0.1:8080/callback?code=c", "http://127.0.0.1:1234/callback", false),
            ("https://app.example.com/callback?code=c", "http://app.example.com/callback", false),
            ("com.example.app:/other?code=c", "com.example.app:/callback", false),
            ("com.example.evil:/callback?code=c", "com.example.app:/callback", false),
        ]
    )
    func arrivedAtRedirectURI(callback: String, redirectURI: String, arrived: Bool) throws {
        let callbackURL = try #require(URL(string: callback))
        let redirect = try #require(URL(string: redirectURI))
        #expect(CallbackParameters.arrived(callbackURL, at: redirect) == arrived)
    }

    @Test("an error redirect surfaces the server's description")
    func errorRedirect() throws {
        let query =
            "error=access_denied&error_description=The%20user%20said%20no&state=s&iss=https%3A%2F%2Fauth.example.com"
        let error = #expect(throws: SessionError.self) { try parameters(query).validatedCode(expectedIssuer: issuer) }
        #expect(error?.serverError == .accessDenied)
        #expect(error?.description.contains("The user said no") == true)
    }

    @Test("no code, or a repeated parameter, is refused")
    func missingCode() throws {
        #expect(throws: SessionError.self) {
            try parameters("state=s&iss=https%3A%2F%2Fauth.example.com").validatedCode(expectedIssuer: issuer)
        }
        #expect(throws: SessionError.self) { try parameters("code=a&code=b&state=s") }
    }

    func token(_ change: (inout [String: Any]) -> Void = { _ in }) throws -> Data {
        var object: [String: Any] = [
            "access_token": "at", "token_type": "DPoP", "expires_in": 3600, "refresh_token": "rt",
            "scope": "atproto transition:generic", "sub": "did:plc:ewvi7nxzyoun6zhxrhs64oiz",
        ]
        change(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    @Test("a DPoP token response for a DID with atproto scope passes")
    func goodTokenResponse() throws {
        let response = try TokenResponse.checked(try token())
        #expect(response.sub == "did:plc:ewvi7nxzyoun6zhxrhs64oiz")
    }

    @Test("refresh_token_expires_in is read when it is a positive number (capped), and ignored otherwise")
    func refreshTokenLifetime() throws {
        let given = try TokenResponse.checked(try token { $0["refresh_token_expires_in"] = 7_776_000 })
        #expect(given.refreshTokenLifetime == 7_776_000)
        #expect(try TokenResponse.checked(try token()).refreshTokenLifetime == nil)
        let huge = try TokenResponse.checked(try token { $0["refresh_token_expires_in"] = 1e308 })
        #expect(huge.refreshTokenLifetime == Session.confidentialClientSession)
        for odd in ["7776000", -5, 0, ["x"]] as [Any] {
            let response = try TokenResponse.checked(try token { $0["refresh_token_expires_in"] = odd })
            #expect(response.refreshTokenLifetime == nil, "\(odd)")
        }
    }

    @Test(
        "token responses failing a check are refused",
        arguments: [
            ("token_type", #""Bearer""#), ("token_type", #""dpop""#), ("sub", #""alice.test""#),
            ("scope", #""transition:generic""#), ("id_token", #""eyJ.x.y""#), ("expires_in", "-5"),
            ("access_token", #""""#), ("scope", #""atproto \"x\"""#), ("scope", #""atproto  transition:generic""#),
            ("scope", #""atproto \u001b]0;t\u0007""#),
        ]
    )
    func badTokenResponse(field: String, json: String) throws {
        let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        let data = try token { $0[field] = value }
        let error = #expect(throws: SessionError.self) { try TokenResponse.checked(data) }
        #expect(error?.category == .securityCheckFailed)
    }

    @Test("a refused token_type is named only when it is a registered type, never when it may be a token")
    func tokenTypeInTheMessage() throws {
        let bearer = #expect(throws: SessionError.self) {
            try TokenResponse.checked(try token { $0["token_type"] = "Bearer" })
        }
        #expect(bearer?.description.contains("token_type is Bearer, not DPoP") == true)
        let echoed = #expect(throws: SessionError.self) {
            try TokenResponse.checked(try token { $0["token_type"] = "Dacc-7fBbC7yYkb_Kj6kBKXTfJ6pDGlSGQ" })
        }
        #expect(echoed?.description.contains("token_type is not DPoP") == true)
        #expect(echoed?.description.contains("7fBbC7yYkb") == false)
    }

    @Test("a token response without sub or not JSON is refused")
    func missingSub() throws {
        #expect(throws: SessionError.self) { try TokenResponse.checked(try token { $0["sub"] = nil }) }
        #expect(throws: SessionError.self) { try TokenResponse.checked(Data("<html>".utf8)) }
    }

    @Test("refresh outcomes: invalid_grant is definitive, 5xx and other errors are transient")
    func refreshOutcome() {
        func classify(_ status: Int, _ code: String?) -> String {
            switch RefreshOutcome.classify(HTTPResponse(status: status), error: (code, nil)) {
            case .refreshed: "refreshed"
            case .refused: "refused"
            case .transient: "transient"
            }
        }
        #expect(classify(200, nil) == "refreshed")
        #expect(classify(400, "invalid_grant") == "refused")
        #expect(classify(401, "invalid_client") == "refused")
        #expect(classify(500, "server_error") == "transient")
        #expect(classify(503, nil) == "transient")
        #expect(classify(400, "use_dpop_nonce") == "transient")
    }

    @Test("refresh is due within the margin plus jitter of expiry")
    func refreshPolicy() throws {
        let now = Date(timeIntervalSince1970: 1_000_000)
        var session = Session(
            did: try DID(validating: "did:plc:ewvi7nxzyoun6zhxrhs64oiz"),
            handle: nil,
            pds: try #require(URL(string: "https://pds.example")),
            scope: "atproto",
            accessToken: "secret-access",
            accessTokenExpiresAt: now.addingTimeInterval(25),
            refreshToken: "secret-refresh",
            createdAt: now,
            updatedAt: now,
            credential: .oauth(
                OAuthGrant(
                    issuer: issuer,
                    clientID: "http://localhost",
                    tokenEndpoint: try #require(URL(string: "https://auth.example.com/token")),
                    revocationEndpoint: nil
                )
            )
        )
        let policy = RefreshPolicy()
        #expect(policy.needsRefresh(session, now: now, jitterFraction: 0) == false)
        #expect(policy.needsRefresh(session, now: now, jitterFraction: 1) == true)
        session.accessTokenExpiresAt = now.addingTimeInterval(5)
        #expect(policy.needsRefresh(session, now: now, jitterFraction: 0) == true)
        #expect(!session.description.contains("secret"))
        #expect(!String(reflecting: session).contains("secret"))
        var dumped = ""
        dump(session, to: &dumped)
        #expect(!dumped.contains("secret") && dumped.contains("<redacted>"))
    }
}
