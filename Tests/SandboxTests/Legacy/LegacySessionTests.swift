import ATOAuthTesting
import Foundation
import HTTPTransport
import Sandbox
import Testing
import WireFormat

@Suite("Legacy app-password sessions beside OAuth: createSession, refreshSession, deleteSession, Bearer only")
struct LegacySessionTests {
    /// A session made with alice's app password: the PDS's answer as JSON.
    struct LegacyTokens {
        var access: String
        var refresh: String
    }

    static func xrpcURL(_ sandbox: SandboxHarness, _ method: String) -> URL {
        sandbox.endpoints.pds.appending(path: "xrpc/\(method)")
    }

    static func post(
        _ sandbox: SandboxHarness,
        _ method: String,
        bearer: String? = nil,
        json: [String: String]? = nil,
        proof: String? = nil
    ) async throws -> HTTPResponse {
        var headers = HTTPHeaders()
        if let bearer { headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let proof { headers.add(name: "DPoP", value: proof) }
        var body: Data?
        if let json {
            headers.add(name: "Content-Type", value: "application/json")
            body = try JSONSerialization.data(withJSONObject: json)
        }
        return try await sandbox.transport.send(
            HTTPRequest(method: .post, url: xrpcURL(sandbox, method), headers: headers, body: body)
        )
    }

    static func tokens(_ response: HTTPResponse) throws -> LegacyTokens {
        #expect(response.status == 200)
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        return LegacyTokens(
            access: try #require(object["accessJwt"] as? String),
            refresh: try #require(object["refreshJwt"] as? String)
        )
    }

    /// An account as the running sandbox has it, with the app password it made at this start.
    static func account(_ sandbox: SandboxHarness, _ handle: String = "alice.test") throws -> SandboxAccount {
        try #require(sandbox.server.configuration.account(for: handle), "the sandbox hosts no \(handle)")
    }

    static func signIn(_ sandbox: SandboxHarness, _ account: SandboxAccount) async throws -> LegacyTokens {
        try tokens(
            try await post(
                sandbox,
                "com.atproto.server.createSession",
                json: ["identifier": account.handle, "password": account.appPassword]
            )
        )
    }

    static func getSession(
        _ sandbox: SandboxHarness,
        authorization: String,
        proof: String? = nil
    ) async throws
        -> HTTPResponse
    {
        var headers: HTTPHeaders = ["Authorization": authorization]
        if let proof { headers.add(name: "DPoP", value: proof) }
        return try await sandbox.transport.send(
            HTTPRequest(url: xrpcURL(sandbox, "com.atproto.server.getSession"), headers: headers)
        )
    }

    static func error(_ response: HTTPResponse) -> String? {
        (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["error"] as? String
    }

    @Test("an app password makes Bearer JWTs that getSession accepts; refresh rotates them")
    func signInAndRefresh() async throws {
        try await withSandbox { sandbox in
            let alice = try Self.account(sandbox)
            let first = try await Self.signIn(sandbox, alice)
            let session = try await Self.getSession(sandbox, authorization: "Bearer \(first.access)")
            #expect(session.status == 200)
            #expect(String(decoding: session.body, as: UTF8.self).contains(alice.did))
            let second = try await Self.refresh(sandbox, first.refresh)
            #expect(second.refresh != first.refresh)
            #expect(try await Self.getSession(sandbox, authorization: "Bearer \(second.access)").status == 200)
            let counters = sandbox.server.counters
            #expect(counters.legacySessionsCreated == 1)
            #expect(counters.legacyRefreshesSucceeded == 1)
            #expect(counters.totalRejections == 0)
        }
    }

    @Test(
        "createSession takes JSON only, and refreshSession no body, as the lexicons say; a refused one changes nothing"
    )
    func requestEncodings() async throws {
        try await withSandbox { sandbox in
            let alice = try Self.account(sandbox)
            let form = try await sandbox.transport.send(
                HTTPRequest(
                    method: .post,
                    url: Self.xrpcURL(sandbox, "com.atproto.server.createSession"),
                    headers: ["Content-Type": "text/plain"],
                    body: Data(#"{"identifier":"alice.test","password":"\#(alice.appPassword)"}"#.utf8)
                )
            )
            #expect(form.status == 400)
            #expect(Self.error(form) == "InvalidRequest")
            let first = try await Self.signIn(sandbox, alice)
            let withBody = try await Self.post(
                sandbox,
                "com.atproto.server.refreshSession",
                bearer: first.refresh,
                json: [:]
            )
            #expect(withBody.status == 400)
            #expect(Self.error(withBody) == "InvalidRequest")
            let refreshed = try await Self.post(sandbox, "com.atproto.server.refreshSession", bearer: first.refresh)
            #expect(
                refreshed.status == 200,
                "the refresh JWT is still good: \(String(decoding: refreshed.body, as: UTF8.self))"
            )
        }
    }

    @Test("a used refresh JWT presented again within two hours gets the same next refresh JWT, as on the reference PDS")
    func reuseWithinGrace() async throws {
        try await withSandbox { sandbox in
            let first = try await Self.signIn(sandbox, try Self.account(sandbox))
            let second = try await Self.refresh(sandbox, first.refresh)
            #expect(try await Self.getSession(sandbox, authorization: "Bearer \(second.access)").status == 200)
            sandbox.clock.advance(by: 2 * 60 * 60 - 1)
            let again = try await Self.refresh(sandbox, first.refresh)
            #expect(try Self.jti(again.refresh) == (try Self.jti(second.refresh)))
            #expect(again.access != second.access)
            #expect(sandbox.server.counters.legacyRefreshTokenReuses == 1)
            #expect(sandbox.server.counters.refreshTokenReplays == 0)
            #expect(sandbox.logMessages.contains { $0.contains("presented again within its grace") })
            // The new access JWT is good, and the chain goes on from the next refresh JWT, whichever copy is sent.
            #expect(try await Self.getSession(sandbox, authorization: "Bearer \(again.access)").status == 200)
            let third = try await Self.refresh(sandbox, again.refresh)
            #expect(try Self.jti(third.refresh) != (try Self.jti(second.refresh)))
            #expect(sandbox.server.counters.legacyRefreshesSucceeded == 3)
        }
    }

    @Test("the refreshServerErrors fault answers an app-password refresh 500 too, and the refresh JWT stays good")
    func injectedRefreshFailure() async throws {
        try await withSandbox { sandbox in
            let first = try await Self.signIn(sandbox, try Self.account(sandbox))
            sandbox.server.updateConfiguration { $0.faults.refreshServerError = .times(1) }
            let failed = try await Self.post(sandbox, "com.atproto.server.refreshSession", bearer: first.refresh)
            #expect(failed.status == 500)
            #expect(Self.error(failed) == "InternalServerError")
            #expect(sandbox.server.counters.injectedRefreshFailures == 1)
            _ = try await Self.refresh(sandbox, first.refresh)
            #expect(sandbox.server.counters.legacyRefreshTokenReuses == 0)
        }
    }

    @Test("a refresh JWT used more than two hours ago ends the whole session, and the reason is logged")
    func replayEndsTheSession() async throws {
        try await withSandbox { sandbox in
            let first = try await Self.signIn(sandbox, try Self.account(sandbox))
            let second = try await Self.refresh(sandbox, first.refresh)
            sandbox.clock.advance(by: 2 * 60 * 60)
            let replay = try await Self.post(sandbox, "com.atproto.server.refreshSession", bearer: first.refresh)
            #expect(replay.status == 400)
            #expect(Self.error(replay) == "ExpiredToken")
            #expect(sandbox.server.counters.refreshTokenReplays == 1)
            #expect(sandbox.server.counters.rejections(.refreshTokenReplay) == 1)
            #expect(sandbox.server.counters.legacyRefreshTokenReuses == 0)
            let after = try await Self.post(sandbox, "com.atproto.server.refreshSession", bearer: second.refresh)
            #expect(Self.error(after) == "ExpiredToken")
            #expect(try await Self.getSession(sandbox, authorization: "Bearer \(second.access)").status == 400)
            #expect(sandbox.logMessages.contains { $0.contains("used more than two hours ago") })
        }
    }

    @Test("deleteSession with a refresh JWT used within two hours ends the session; one used before that is a replay")
    func deleteWithUsedRefreshJWT() async throws {
        try await withSandbox { sandbox in
            let account = try Self.account(sandbox)
            let first = try await Self.signIn(sandbox, account)
            let second = try await Self.refresh(sandbox, first.refresh)
            let deleted = try await Self.post(sandbox, "com.atproto.server.deleteSession", bearer: first.refresh)
            #expect(deleted.status == 200)
            #expect(try await Self.getSession(sandbox, authorization: "Bearer \(second.access)").status == 400)
            #expect(sandbox.server.counters.legacySessionsDeletedWithUsedJWT == 1)

            let other = try await Self.signIn(sandbox, account)
            _ = try await Self.refresh(sandbox, other.refresh)
            sandbox.clock.advance(by: 2 * 60 * 60)
            let late = try await Self.post(sandbox, "com.atproto.server.deleteSession", bearer: other.refresh)
            #expect(Self.error(late) == "ExpiredToken")
            #expect(sandbox.server.counters.refreshTokenReplays == 1)
            #expect(sandbox.server.counters.legacySessionsDeleted == 1)
            #expect(sandbox.server.counters.legacySessionsDeletedWithUsedJWT == 1)
        }
    }

    /// The tokens of a successful `refreshSession` with `refreshJWT`.
    static func refresh(_ sandbox: SandboxHarness, _ refreshJWT: String) async throws -> LegacyTokens {
        try tokens(try await post(sandbox, "com.atproto.server.refreshSession", bearer: refreshJWT))
    }

    /// The `jti` of a JWT this sandbox issued.
    static func jti(_ token: String) throws -> String {
        let parts = token.split(separator: ".")
        let payload = try #require(parts.count == 3 ? Base64URL.decode(parts[1]) : nil)
        let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        return try #require(claims["jti"] as? String)
    }

    @Test("a legacy JWT with a DPoP proof, or as Authorization: DPoP, is refused; an OAuth token as Bearer too")
    func neverMixed() async throws {
        try await withSandbox { sandbox in
            let legacy = try await Self.signIn(sandbox, try Self.account(sandbox))
            let client = sandbox.client()
            let url = Self.xrpcURL(sandbox, "com.atproto.server.getSession")
            let proof = try client.proof(.get, url, accessToken: legacy.access)
            let asDPoP = try await Self.getSession(sandbox, authorization: "DPoP \(legacy.access)", proof: proof)
            #expect(asDPoP.status == 400)
            let withProof = try await Self.getSession(sandbox, authorization: "Bearer \(legacy.access)", proof: proof)
            #expect(withProof.status == 400)
            let refreshProof = try client.proof(.post, Self.xrpcURL(sandbox, "com.atproto.server.refreshSession"))
            let refresh = try await Self.post(
                sandbox,
                "com.atproto.server.refreshSession",
                bearer: legacy.refresh,
                proof: refreshProof
            )
            #expect(refresh.status == 400)
            #expect(sandbox.server.counters.rejections(.dpopWithLegacyToken) == 3)
            #expect(sandbox.logMessages.filter { $0.contains("Bearer") }.count >= 3)

            let signedIn = try await SignedInClient(sandbox)
            let oauthAsBearer = try await signedIn.getSession(
                authorization: "Bearer \(signedIn.tokens.accessToken)",
                proof: nil
            )
            #expect(oauthAsBearer.status == 401)
            #expect(sandbox.server.counters.rejections(.bearerScheme) == 1)
        }
    }

    @Test("a wrong app password is refused; a two-factor account asks for its code, then signs in with it")
    func credentialsAndTwoFactor() async throws {
        let configuration = SandboxConfiguration(
            accounts: [SandboxAccount(handle: "alice.test", twoFactor: true)],
            autoApprove: true
        )
        try await withSandbox(configuration) { sandbox in
            let alice = try Self.account(sandbox)
            let wrong = try await Self.post(
                sandbox,
                "com.atproto.server.createSession",
                json: ["identifier": alice.handle, "password": "aaaa-bbbb-cccc-dddd"]
            )
            #expect(wrong.status == 401)
            #expect(Self.error(wrong) == "AuthenticationRequired")
            #expect(sandbox.server.counters.rejections(.invalidCredentials) == 1)
            let asked = try await Self.post(
                sandbox,
                "com.atproto.server.createSession",
                json: ["identifier": alice.did, "password": alice.appPassword]
            )
            #expect(asked.status == 401)
            #expect(Self.error(asked) == "AuthFactorTokenRequired")
            let code = try #require(alice.authFactorToken)
            _ = try Self.tokens(
                try await Self.post(
                    sandbox,
                    "com.atproto.server.createSession",
                    json: ["identifier": alice.did, "password": alice.appPassword, "authFactorToken": code]
                )
            )
        }
    }

    @Test("an expired access JWT is refused with ExpiredToken; deleteSession ends the session")
    func expiryAndDeletion() async throws {
        try await withSandbox { sandbox in
            let tokens = try await Self.signIn(sandbox, try Self.account(sandbox))
            sandbox.clock.advance(by: 1801)
            let expired = try await Self.getSession(sandbox, authorization: "Bearer \(tokens.access)")
            #expect(expired.status == 400)
            #expect(Self.error(expired) == "ExpiredToken")
            let fresh = try await Self.refresh(sandbox, tokens.refresh)
            let deleted = try await Self.post(sandbox, "com.atproto.server.deleteSession", bearer: fresh.refresh)
            #expect(deleted.status == 200)
            #expect(sandbox.server.counters.legacySessionsDeleted == 1)
            #expect(try await Self.getSession(sandbox, authorization: "Bearer \(fresh.access)").status == 400)
            let again = try await Self.post(sandbox, "com.atproto.server.refreshSession", bearer: fresh.refresh)
            #expect(Self.error(again) == "ExpiredToken")
        }
    }

    @Test("an app password is random, four groups of four base32 characters, as Bluesky's look")
    func randomAppPassword() {
        let passwords = (0..<64).map { _ in SandboxAccount.randomAppPassword() }
        #expect(Set(passwords).count == passwords.count)
        for password in passwords {
            #expect(password.split(separator: "-", omittingEmptySubsequences: false).map(\.count) == [4, 4, 4, 4])
            #expect(password.allSatisfy { $0 == "-" || "abcdefghijklmnopqrstuvwxyz234567".contains($0) })
        }
        #expect(SandboxAccount(handle: "alice.test").appPassword != SandboxAccount(handle: "alice.test").appPassword)
        #expect(SandboxAccount.defaults.map(\.appPassword) != SandboxAccount.defaults.map(\.appPassword))
    }

    @Test("a two-factor sign-in code is random too, two groups of five uppercase base32 characters")
    func randomAuthFactorToken() {
        let codes = (0..<64).map { _ in SandboxAccount.randomAuthFactorToken() }
        #expect(Set(codes).count == codes.count)
        for code in codes {
            #expect(code.split(separator: "-", omittingEmptySubsequences: false).map(\.count) == [5, 5])
            #expect(code.allSatisfy { $0 == "-" || "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".contains($0) })
        }
        let first = SandboxAccount(handle: "alice.test", twoFactor: true).authFactorToken
        #expect(first != nil && first != SandboxAccount(handle: "alice.test", twoFactor: true).authFactorToken)
    }

    @Test("an access JWT another start signed is InvalidToken, as the reference PDS answers, so a client refreshes")
    func otherStartsJWT() async throws {
        try await withSandbox { first in
            let legacy = try await Self.signIn(first, try Self.account(first))
            try await withSandbox { second in
                let stale = try await Self.getSession(second, authorization: "Bearer \(legacy.access)", proof: nil)
                #expect(stale.status == 400)
                #expect(Self.error(stale) == "InvalidToken")
                #expect(second.server.counters.rejections(.invalidToken) == 1)
                #expect(second.server.counters.rejections(.bearerScheme) == 0)
            }
        }
    }

    @Test("each start has its own app passwords: one start's signs in there, and the other start refuses it")
    func appPasswordsPerStart() async throws {
        try await withSandbox { first in
            try await withSandbox { second in
                for handle in ["alice.test", "bob.test"] {
                    let mine = try Self.account(first, handle)
                    let theirs = try Self.account(second, handle)
                    #expect(mine.did == theirs.did)
                    #expect(mine.appPassword != theirs.appPassword)
                    _ = try await Self.signIn(first, mine)
                    _ = try await Self.signIn(second, theirs)
                    for (sandbox, password) in [(first, theirs.appPassword), (second, mine.appPassword)] {
                        let refused = try await Self.post(
                            sandbox,
                            "com.atproto.server.createSession",
                            json: ["identifier": handle, "password": password]
                        )
                        #expect(refused.status == 401)
                        #expect(Self.error(refused) == "AuthenticationRequired")
                    }
                }
                #expect(first.server.counters.legacySessionsCreated == 2)
                #expect(first.server.counters.rejections(.invalidCredentials) == 2)
                #expect(second.server.counters.rejections(.invalidCredentials) == 2)
            }
        }
    }
}
