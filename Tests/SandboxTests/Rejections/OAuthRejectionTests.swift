import ATOAuthTesting
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("Authorization server checks")
struct OAuthRejectionTests {
    @Test("the authorization endpoint refuses a request that was not pushed, or that adds parameters")
    func authorizeWithoutPAR() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let flow = FlowSecrets()
            var components = try #require(
                URLComponents(
                    url: client.url(sandbox.endpoints.authorizationServer, "oauth/authorize"),
                    resolvingAgainstBaseURL: false
                )
            )
            components.percentEncodedQuery = String(
                decoding: FormEscape.encode(client.parParameters(flow)),
                as: UTF8.self
            )
            let direct = try await client.send(HTTPRequest(url: try #require(components.url)))
            #expect(direct.status == 400)
            #expect(direct.headers["Location"] == nil)
            #expect(sandbox.server.counters.rejections(.parRequired) == 1)

            let requestURI = try await client.pushAuthorization(flow)
            components.percentEncodedQuery = String(
                decoding: FormEscape.encode([
                    ("client_id", client.clientID), ("request_uri", requestURI), ("state", "other"),
                ]),
                as: UTF8.self
            )
            let extra = try await client.send(HTTPRequest(url: try #require(components.url)))
            #expect(extra.status == 400)
            #expect(sandbox.server.counters.rejections(.invalidRequest) == 1)

            let used = try await client.openAuthorization(requestURI: requestURI)
            #expect(used.status == 302)
            let reused = try await client.openAuthorization(requestURI: requestURI)
            #expect(reused.status == 400)
            #expect(sandbox.server.counters.rejections(.invalidRequestURI) == 1)
        }
    }

    @Test("a request_uri expires after 300 seconds")
    func requestURIExpires() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let requestURI = try await client.pushAuthorization(FlowSecrets())
            sandbox.clock.advance(by: 301)
            let response = try await client.openAuthorization(requestURI: requestURI)
            #expect(response.status == 400)
            #expect(sandbox.server.counters.rejections(.invalidRequestURI) == 1)
        }
    }

    @Test("a PKCE challenge an exchange spent is refused in a later authorization, as the reference server does")
    func codeChallengeReuse() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let flow = FlowSecrets()
            let first = try await client.tokenRequest(
                client.codeGrantParameters(try await client.authorizationCode(flow), flow)
            )
            #expect(first.status == 200)
            let second = try await client.tokenRequest(
                client.codeGrantParameters(try await client.authorizationCode(flow), flow)
            )
            #expect(second.errorCode == "invalid_grant")
            #expect(sandbox.server.counters.rejections(.codeChallengeReuse) == 1)
            sandbox.clock.advance(by: 1.1 * 86_400 + 1)
            let later = try await client.tokenRequest(
                client.codeGrantParameters(try await client.authorizationCode(flow), flow)
            )
            #expect(later.status == 200, "a challenge is forgotten after a day and a tenth: \(later.text)")
        }
    }

    /// One part of an authorization-code exchange made wrong (RFC 6749 section 4.1.3, RFC 7636 section 4.6,
    /// RFC 9449 section 10).
    enum ExchangeFault: CaseIterable, CustomTestStringConvertible, Sendable {
        case verifierOfAnotherFlow, anotherRedirectURI, anotherDPoPKey

        var testDescription: String {
            switch self {
            case .verifierOfAnotherFlow: "a code_verifier that does not hash to the challenge"
            case .anotherRedirectURI: "a redirect_uri other than the PAR's"
            case .anotherDPoPKey: "a DPoP key other than the PAR's"
            }
        }

        /// The reason the sandbox counts.
        var reason: SandboxRejectionReason {
            switch self {
            case .verifierOfAnotherFlow: .pkceMismatch
            case .anotherRedirectURI: .redirectURIMismatch
            case .anotherDPoPKey: .dpopKeyMismatch
            }
        }
    }

    @Test("a code exchange with one wrong part is refused as invalid_grant", arguments: ExchangeFault.allCases)
    func faultyExchange(_ fault: ExchangeFault) async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let flow = FlowSecrets()
            let code = try await client.authorizationCode(flow)
            let response: HTTPResponse
            switch fault {
            case .verifierOfAnotherFlow:
                var parameters = client.codeGrantParameters(code, flow)
                parameters[3] = ("code_verifier", TestPKCE().verifier)
                response = try await client.tokenRequest(parameters)
            case .anotherRedirectURI:
                response = try await client.tokenRequest(
                    client.codeGrantParameters(code, flow, redirectURI: "http://127.0.0.1:54322/callback")
                )
            case .anotherDPoPKey:
                response = try await sandbox.client().tokenRequest(client.codeGrantParameters(code, flow))
            }
            #expect(response.status == 400)
            #expect(response.errorCode == "invalid_grant")
            #expect(response.headers["DPoP-Nonce"] != nil)
            #expect(sandbox.server.counters.rejections(fault.reason) == 1)
            #expect(sandbox.server.counters.authorizationCodeGrantsSucceeded == 0)
        }
    }

    @Test("a code used twice is refused and the tokens it issued are revoked")
    func codeReuse() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let flow = FlowSecrets()
            let code = try await client.authorizationCode(flow)
            let first = try await client.tokenRequest(client.codeGrantParameters(code, flow))
            let tokens = try Tokens(first)
            let second = try await client.tokenRequest(client.codeGrantParameters(code, flow))
            #expect(second.status == 400)
            #expect(second.errorCode == "invalid_grant")
            #expect(sandbox.server.counters.rejections(.codeReuse) == 1)
            let session = try await client.xrpc(.get, "com.atproto.server.getSession", accessToken: tokens.accessToken)
            #expect(session.status == 401)
            #expect(session.dpopChallenge?["error"] == "invalid_token")
        }
    }

    @Test("a replayed refresh token deletes the whole session")
    func refreshTokenReplay() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let original = try await client.signIn()
            let rotated = try Tokens(try await client.refresh(original.refreshToken))
            let replay = try await client.refresh(original.refreshToken)
            #expect(replay.status == 400)
            #expect(replay.errorCode == "invalid_grant")
            #expect(sandbox.server.counters.refreshTokenReplays == 1)
            #expect(sandbox.server.counters.refreshGrantsSucceeded == 1)

            let newest = try await client.xrpc(.get, "com.atproto.server.getSession", accessToken: rotated.accessToken)
            #expect(newest.status == 401)
            #expect(newest.dpopChallenge?["error"] == "invalid_token")
            let newestRefresh = try await client.refresh(rotated.refreshToken)
            #expect(newestRefresh.errorCode == "invalid_grant")
        }
    }

    @Test("an expired access token gets invalid_token, and a refresh brings a working one")
    func expiredAccessToken() async throws {
        try await withSandbox(SandboxConfiguration(accessTokenLifetime: 60, autoApprove: true)) { sandbox in
            let client = sandbox.client()
            let tokens = try await client.signIn()
            #expect(tokens.expiresIn == 60)
            #expect(
                try await client.xrpc(.get, "com.atproto.server.getSession", accessToken: tokens.accessToken).status
                    == 200
            )
            sandbox.clock.advance(by: 61)
            let expired = try await client.xrpc(.get, "com.atproto.server.getSession", accessToken: tokens.accessToken)
            #expect(expired.status == 401)
            #expect(expired.dpopChallenge?["error"] == "invalid_token")
            #expect(sandbox.server.counters.rejections(.expiredToken) == 1)
            let refreshed = try Tokens(try await client.refresh(tokens.refreshToken))
            #expect(
                try await client.xrpc(.get, "com.atproto.server.getSession", accessToken: refreshed.accessToken).status
                    == 200
            )
        }
    }

    @Test(
        "the PAR endpoint refuses clients, redirect URIs, scopes and PKCE methods outside the profile",
        arguments: [
            ("client_id", "http://localhost:8080", "invalid_client"),
            ("client_id", "https://app.example/client-metadata.json", "invalid_client"),
            ("redirect_uri", "http://localhost:54321/callback", "invalid_request"),
            ("redirect_uri", "http://127.0.0.1:54321/elsewhere", "invalid_request"),
            ("scope", "transition:generic", "invalid_scope"),
            ("scope", "atproto transition:chat.bsky", "invalid_scope"),
            ("code_challenge_method", "plain", "invalid_request"),
            ("response_type", "token", "unsupported_response_type"),
        ]
    )
    func parRefusals(parameter: String, value: String, error: String) async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            var parameters = client.parParameters(FlowSecrets())
            parameters.removeAll { $0.0 == parameter }
            parameters.append((parameter, value))
            let response = try await client.executor.send(
                client.formRequest(client.url(sandbox.endpoints.authorizationServer, "oauth/par"), parameters)
            )
            #expect(response.status == 400)
            #expect(response.errorCode == error)
            #expect(try response.json()["error_description"] as? String != nil)
        }
    }
}
