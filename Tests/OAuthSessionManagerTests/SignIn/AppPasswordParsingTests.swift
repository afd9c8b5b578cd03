import Foundation
import HTTPTransport
import Testing

@testable import OAuthSessionManager

@Suite("App-password sessions: the pure pieces (JWT claims, answers, refresh outcomes, stored kind)")
struct AppPasswordParsingTests {
    /// A compact JWS with the given claims and a dummy signature.
    static func jwt(_ claims: String) -> String {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return encode(#"{"alg":"HS256","typ":"at+jwt"}"#) + "." + encode(claims) + ".c2lnbmF0dXJl"
    }

    @Test("a legacy access JWT's exp, scope and sub are read; the signature is not the client's to check")
    func claims() throws {
        let claims = try #require(
            LegacyJWTClaims(
                token: Self.jwt(#"{"scope":"com.atproto.appPass","sub":"did:plc:abc","exp":1700000000,"iat":1}"#)
            )
        )
        #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(claims.scope == "com.atproto.appPass")
        #expect(claims.subject == "did:plc:abc")
        let noExpiry = try #require(LegacyJWTClaims(token: Self.jwt(#"{"exp":true}"#)))
        #expect(noExpiry.expiresAt == nil)
    }

    @Test("an exp years away is believed for a day at most, as an OAuth expires_in is; a nearer one as it is")
    func expiryIsCapped() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let far = try #require(LegacyJWTClaims(token: Self.jwt(#"{"exp":1e15}"#)))
        #expect(far.expiry(issuedAt: now) == now.addingTimeInterval(TokenResponse.maximumLifetime))
        let near = try #require(LegacyJWTClaims(token: Self.jwt(#"{"exp":1700000600}"#)))
        #expect(near.expiry(issuedAt: now) == Date(timeIntervalSince1970: 1_700_000_600))
        #expect(try #require(LegacyJWTClaims(token: Self.jwt(#"{}"#))).expiry(issuedAt: now) == nil)
    }

    @Test(
        "text that is not a JWT has no claims",
        arguments: ["", "abc", "a.b", "a.b.c.d", "..", "e30.e30+.sig", "e30.bm90IGpzb24.sig", "e30.WzFd.sig"]
    )
    func notAJWT(_ text: String) {
        #expect(LegacyJWTClaims(token: text) == nil)
    }

    @Test("a createSession answer needs accessJwt, refreshJwt and did, all non-empty strings")
    func answer() throws {
        let good = try #require(
            LegacySessionAnswer(Data(#"{"accessJwt":"a","refreshJwt":"r","did":"did:plc:x","handle":"h.test"}"#.utf8))
        )
        #expect(good.accessJwt == "a" && good.refreshJwt == "r" && good.did == "did:plc:x" && good.handle == "h.test")
        for body in [
            #"{"accessJwt":"a","refreshJwt":"r"}"#, #"{"accessJwt":"","refreshJwt":"r","did":"d"}"#,
            #"{"accessJwt":1,"refreshJwt":"r","did":"d"}"#, "[]", "not json",
        ] {
            #expect(LegacySessionAnswer(Data(body.utf8)) == nil, "\(body)")
        }
    }

    @Test("refreshSession answers: 2xx refreshed; ExpiredToken and InvalidToken end the session; the rest is transient")
    func refreshOutcome() {
        func classify(_ status: Int, _ error: String?) -> RefreshOutcome {
            let body = error.map { #"{"error":"\#($0)","message":"m"}"# } ?? ""
            return RefreshOutcome.classifyAppPassword(HTTPResponse(status: status, headers: [:], body: Data(body.utf8)))
        }
        #expect(classify(200, nil) == .refreshed)
        #expect(classify(400, "ExpiredToken") == .refused(serverError: "ExpiredToken", description: "m"))
        #expect(classify(400, "InvalidToken") == .refused(serverError: "InvalidToken", description: "m"))
        #expect(
            classify(401, "AuthenticationRequired") == .refused(serverError: "AuthenticationRequired", description: "m")
        )
        #expect(
            classify(400, "InvalidRequest") == .transient(status: 400, serverError: "InvalidRequest", description: "m")
        )
        #expect(classify(500, "ExpiredToken") == .transient(status: 500, serverError: "ExpiredToken", description: "m"))
        #expect(classify(502, nil) == .transient(status: 502, serverError: nil, description: nil))
    }

    @Test("a stored session without a kind is OAuth; an app-password session keeps its kind; tokens stay hidden")
    func storedKind() throws {
        let oauth = #"""
            {"did":"did:plc:ewvi7nxzyoun6zhxrhs64oiz","pds":"https://pds.example","issuer":"https://auth.example",
             "scope":"atproto","accessToken":"secret-a","refreshToken":"secret-r","clientID":"http://localhost",
             "tokenEndpoint":"https://auth.example/token","createdAt":1,"updatedAt":2}
            """#
        var session = try SessionStore.decoder.decode(Session.self, from: Data(oauth.utf8))
        #expect(session.kind == .oauth)
        #expect(String(decoding: try SessionStore.encoder.encode(session), as: UTF8.self).contains(#""kind":"oauth""#))
        session.credential = .appPassword(
            AppPasswordGrant(
                refreshEndpoint: try #require(
                    URL(string: "https://pds.example/xrpc/com.atproto.server.refreshSession")
                ),
                deleteEndpoint: try #require(URL(string: "https://pds.example/xrpc/com.atproto.server.deleteSession"))
            )
        )
        let encoded = try SessionStore.encoder.encode(session)
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""kind":"app-password""#))
        #expect(try SessionStore.decoder.decode(Session.self, from: encoded).kind == .appPassword)
        #expect(session.description.contains("app-password") && !session.description.contains("secret"))
        let unknownKind = oauth.replacingOccurrences(of: #""createdAt""#, with: #""kind":"magic","createdAt""#)
        #expect(throws: DecodingError.self) {
            try SessionStore.decoder.decode(Session.self, from: Data(unknownKind.utf8))
        }
    }
}
