import ATOAuthTesting
import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("Faults of a non-conforming server: no DPoP nonces, a skewed clock")
struct ClockAndNonceFaultTests {
    /// The one `Date` header of an answer, read as IMF-fixdate (RFC 9110 §5.6.7); fails the test when there is not
    /// exactly one or it is in another form.
    static func date(of response: HTTPResponse) throws -> Date {
        let values = response.headers.values(for: "Date")
        #expect(values.count == 1, "\(values)")
        let value = try #require(values.first)
        // The names are checked by the formatter below, which reads English names only.
        let form = /[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT/
        #expect(value.wholeMatch(of: form) != nil, "\(value)")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return try #require(formatter.date(from: value), "\(value)")
    }

    /// An answer of each origin, success or error: the PLC directory, the PDS, the authorization server, a 404.
    static func answers(_ sandbox: SandboxHarness) async throws -> [HTTPResponse] {
        let endpoints = sandbox.endpoints
        let urls = [
            endpoints.plcDirectory.appending(path: SandboxAccount(handle: "alice.test").did),
            endpoints.pds.appending(path: ".well-known/oauth-protected-resource"),
            endpoints.authorizationServer.appending(path: ".well-known/oauth-authorization-server"),
            endpoints.authorizationServer.appending(path: "no-such-endpoint"),
        ]
        var answers: [HTTPResponse] = []
        for url in urls { answers.append(try await sandbox.transport.send(HTTPRequest(url: url))) }
        return answers
    }

    @Test("noDPoPNonces: a whole sign-in and a resource request without nonces succeed, and no answer has one")
    func noDPoPNonces() async throws {
        try await withSandbox { sandbox in
            sandbox.server.updateConfiguration { $0.faults.noDPoPNonces = true }
            let client = sandbox.client()
            let flow = FlowSecrets()
            let parURL = client.url(sandbox.endpoints.authorizationServer, "oauth/par")
            let par = try await client.send(
                client.formRequest(parURL, client.parParameters(flow), proof: try client.proof(.post, parURL))
            )
            #expect(par.status == 201, "\(par.text)")
            #expect(par.headers["DPoP-Nonce"] == nil)

            let requestURI = try #require(try par.json()["request_uri"] as? String)
            let redirect = try await client.openAuthorization(requestURI: requestURI)
            let code = try #require(try redirect.locationQuery()["code"])
            let tokenURL = client.url(sandbox.endpoints.authorizationServer, "oauth/token")
            let tokenProof = try client.proof(.post, tokenURL)
            let token = try await client.send(
                client.formRequest(tokenURL, client.codeGrantParameters(code, flow), proof: tokenProof)
            )
            #expect(token.status == 200, "\(token.text)")
            #expect(token.headers["DPoP-Nonce"] == nil)
            let tokens = try Tokens(token)

            let sessionURL = client.url(sandbox.endpoints.pds, "xrpc/com.atproto.server.getSession")
            var headers: HTTPHeaders = ["Authorization": "DPoP \(tokens.accessToken)"]
            headers.add(name: "DPoP", value: try client.proof(.get, sessionURL, accessToken: tokens.accessToken))
            let session = try await client.send(HTTPRequest(method: .get, url: sessionURL, headers: headers))
            #expect(session.status == 200, "\(session.text)")
            #expect(session.headers["DPoP-Nonce"] == nil)

            let refreshed = try await client.refresh(tokens.refreshToken)
            #expect(refreshed.status == 200)
            #expect(refreshed.headers["DPoP-Nonce"] == nil)
            #expect(sandbox.server.counters.nonceChallengesSent == 0)
            #expect(sandbox.server.counters.totalRejections == 0)
        }
    }

    @Test("every answer carries one Date header in IMF-fixdate, from the sandbox's clock, not the real one")
    func dateHeader() async throws {
        try await withSandbox { sandbox in
            sandbox.clock.advance(by: 10 * 86_400)
            for answer in try await Self.answers(sandbox) {
                let date = try Self.date(of: answer)
                #expect(abs(date.timeIntervalSince(sandbox.clock.now())) < 2, "\(answer.status)")
            }
        }
    }

    @Test("clockSkew 3600: every Date header is an hour ahead")
    func clockSkewDate() async throws {
        try await withSandbox { sandbox in
            sandbox.server.updateConfiguration { $0.faults.clockSkew = 3600 }
            for answer in try await Self.answers(sandbox) {
                let date = try Self.date(of: answer)
                #expect(abs(date.timeIntervalSince(sandbox.clock.now()) - 3600) < 2, "\(answer.status)")
            }
            sandbox.server.updateConfiguration { $0.faults.clockSkew = -3600 }
            let behind = try Self.date(of: try #require(try await Self.answers(sandbox).first))
            #expect(abs(behind.timeIntervalSince(sandbox.clock.now()) + 3600) < 2)
        }
    }

    @Test("clockSkew 3600: a proof made at the real time is too old; one made an hour ahead is accepted")
    func clockSkewProofs() async throws {
        try await withSandbox { sandbox in
            sandbox.server.updateConfiguration { $0.faults.clockSkew = 3600 }
            let client = sandbox.client()
            let parURL = client.url(sandbox.endpoints.authorizationServer, "oauth/par")
            let now = sandbox.clock.now()

            let first = try await client.send(
                client.formRequest(parURL, client.parParameters(FlowSecrets()), proof: try client.proof(.post, parURL))
            )
            #expect(first.status == 400)
            let nonce = try #require(first.headers["DPoP-Nonce"])

            let realTime = try client.proof(.post, parURL, nonce: nonce, issuedAt: now)
            let refused = try await client.send(
                client.formRequest(parURL, client.parParameters(FlowSecrets()), proof: realTime)
            )
            #expect(refused.status == 400)
            #expect(refused.errorCode == "invalid_dpop_proof")
            let description = try #require(try refused.json()["error_description"] as? String)
            #expect(description.contains("iat"), "\(description)")
            #expect(sandbox.server.counters.rejections(.dpopIssuedAtOutOfRange) == 2)

            let ahead = try client.proof(.post, parURL, nonce: nonce, issuedAt: now.addingTimeInterval(3600))
            let accepted = try await client.send(
                client.formRequest(parURL, client.parParameters(FlowSecrets()), proof: ahead)
            )
            #expect(accepted.status == 201, "\(accepted.text)")
        }
    }

    @Test("clockSkew -3600: a proof made an hour behind the real time is accepted, after the nonce challenge")
    func clockSkewBehind() async throws {
        try await withSandbox { sandbox in
            sandbox.server.updateConfiguration { $0.faults.clockSkew = -3600 }
            let client = sandbox.client()
            let flow = FlowSecrets()
            let parURL = client.url(sandbox.endpoints.authorizationServer, "oauth/par")
            let behind = sandbox.clock.now().addingTimeInterval(-3600)
            let challenge = try await client.send(
                client.formRequest(
                    parURL,
                    client.parParameters(flow),
                    proof: try client.proof(.post, parURL, issuedAt: behind)
                )
            )
            #expect(challenge.errorCode == "use_dpop_nonce")
            let nonce = try #require(challenge.headers["DPoP-Nonce"])
            let par = try await client.send(
                client.formRequest(
                    parURL,
                    client.parParameters(flow),
                    proof: try client.proof(.post, parURL, nonce: nonce, issuedAt: behind)
                )
            )
            #expect(par.status == 201, "\(par.text)")
        }
    }
}
