import ATOAuthTesting
import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("Client assertions are checked as RFC 7523 §3 says, and each wrong one is invalid_client")
struct ClientAssertionRefusalTests {
    /// One part of an otherwise good client authentication made wrong.
    enum AssertionFault: CaseIterable, CustomTestStringConvertible, Sendable {
        case missing, wrongType, wrongAudience, expired, unknownKeyID, noKeyID, badSignature, algorithmNone
        case wrongIssuer, wrongSubject, noJTI, tooLongLived, issuedInTheFuture, notAJWT
        case critical, issuedOverAMinuteAgo, issuedSecondsAhead

        var testDescription: String {
            switch self {
            case .missing: "no client_assertion"
            case .wrongType: "a client_assertion_type other than jwt-bearer"
            case .wrongAudience: "aud names the PDS, not the issuer"
            case .expired: "exp is past"
            case .unknownKeyID: "kid names no key of the JWKS"
            case .noKeyID: "no kid in the header"
            case .badSignature: "signed by another key under the right kid"
            case .algorithmNone: "alg none"
            case .wrongIssuer: "iss names another client"
            case .wrongSubject: "sub names another client"
            case .noJTI: "no jti"
            case .tooLongLived: "exp an hour after iat"
            case .issuedInTheFuture: "iat ten minutes ahead"
            case .notAJWT: "not a compact JWS"
            case .critical: "a header that marks an extension critical (crit)"
            case .issuedOverAMinuteAgo: "iat 61 seconds ago, exp still ahead"
            case .issuedSecondsAhead: "iat five seconds ahead"
            }
        }

        /// The reason the sandbox counts.
        var reason: SandboxRejectionReason {
            switch self {
            case .missing, .wrongType: .clientAssertionMissing
            default: .clientAssertionInvalid
            }
        }

        /// The form's client authentication with this fault, for `client`, whose key is `key`.
        func authentication(_ client: ConfidentialTestClient, key: TestSigningKey) throws -> [(String, String)] {
            let now = Int(client.now.timeIntervalSince1970)
            let other = "https://other.example/client-metadata.json"
            let assertion: String
            switch self {
            case .missing:
                return [("client_assertion_type", TestSigningKey.assertionType)]
            case .wrongType:
                return [
                    ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:saml2-bearer"),
                    ("client_assertion", try client.assertion(key)),
                ]
            case .wrongAudience:
                assertion = try client.assertion(key) { _, claims in
                    claims["aud"] = client.endpoints.pds.absoluteString
                }
            case .expired:
                assertion = try client.assertion(key) { _, claims in
                    claims["iat"] = now - 120
                    claims["exp"] = now - 60
                }
            case .unknownKeyID:
                assertion = try client.assertion(key) { header, _ in header["kid"] = "no-such-key" }
            case .noKeyID:
                assertion = try client.assertion(key) { header, _ in header["kid"] = nil }
            case .badSignature:
                assertion = try client.assertion(TestSigningKey(kid: key.kid))
            case .algorithmNone:
                assertion = try client.assertion(key) { header, _ in header["alg"] = "none" }
            case .wrongIssuer:
                assertion = try client.assertion(key) { _, claims in claims["iss"] = other }
            case .wrongSubject:
                assertion = try client.assertion(key) { _, claims in claims["sub"] = other }
            case .noJTI:
                assertion = try client.assertion(key) { _, claims in claims["jti"] = nil }
            case .tooLongLived:
                assertion = try client.assertion(key) { _, claims in claims["exp"] = now + 3600 }
            case .issuedInTheFuture:
                assertion = try client.assertion(key) { _, claims in
                    claims["iat"] = now + 600
                    claims["exp"] = now + 660
                }
            case .notAJWT:
                assertion = "not.a-jwt"
            case .critical:
                assertion = try client.assertion(key) { header, _ in header["crit"] = ["x-unknown"] }
            case .issuedOverAMinuteAgo:
                assertion = try client.assertion(key) { _, claims in
                    claims["iat"] = now - 61
                    claims["exp"] = now + 30
                }
            case .issuedSecondsAhead:
                assertion = try client.assertion(key) { _, claims in
                    claims["iat"] = now + 5
                    claims["exp"] = now + 65
                }
            }
            return ConfidentialTestClient.authentication(assertion)
        }
    }

    @Test(
        "a refresh with a wrong client authentication is refused, counted, and leaves the session",
        arguments: AssertionFault.allCases
    )
    func refreshRefusals(_ fault: AssertionFault) async throws {
        let key = TestSigningKey(kid: "key-1")
        try await withSandbox(try ConfidentialDocuments.configuration(keys: [key])) { sandbox in
            let client = ConfidentialTestClient(sandbox)
            let tokens = try await client.signIn(key: key)
            let refused = try await client.refresh(
                tokens.refreshToken,
                authentication: try fault.authentication(client, key: key)
            )
            #expect(refused.status == 400)
            #expect(refused.errorCode == "invalid_client")
            #expect((try refused.json()["error_description"] as? String)?.isEmpty == false)
            #expect(refused.headers["DPoP-Nonce"] != nil)
            let counters = sandbox.server.counters
            #expect(counters.clientAssertionsRefused == 1)
            #expect(counters.rejections(fault.reason) == 1)
            #expect(counters.refreshGrantsSucceeded == 0)

            let refreshed = try await client.refresh(tokens.refreshToken, key: key)
            #expect(refreshed.status == 200, "the session should be intact: \(refreshed.text)")
        }
    }

    @Test("a PAR with a wrong client authentication is refused", arguments: AssertionFault.allCases)
    func parRefusals(_ fault: AssertionFault) async throws {
        let key = TestSigningKey(kid: "key-1")
        try await withSandbox(try ConfidentialDocuments.configuration(keys: [key])) { sandbox in
            let client = ConfidentialTestClient(sandbox)
            let refused = try await client.pushAuthorization(
                FlowSecrets(),
                authentication: try fault.authentication(client, key: key)
            )
            #expect(refused.status == 400)
            #expect(refused.errorCode == "invalid_client")
            #expect(sandbox.server.counters.clientAssertionsRefused == 1)
            #expect(sandbox.server.counters.rejections(fault.reason) == 1)
        }
    }

    @Test("an assertion is taken once: its jti replayed at the same or another endpoint is refused")
    func replayedJTI() async throws {
        let key = TestSigningKey(kid: "key-1")
        try await withSandbox(try ConfidentialDocuments.configuration(keys: [key])) { sandbox in
            let client = ConfidentialTestClient(sandbox)
            let tokens = try await client.signIn(key: key)
            let assertion = try client.assertion(key)
            let first = try await client.refresh(
                tokens.refreshToken,
                authentication: ConfidentialTestClient.authentication(assertion)
            )
            #expect(first.status == 200, "refresh failed: \(first.text)")
            let replayed = try await client.refresh(
                try Tokens(first).refreshToken,
                authentication: ConfidentialTestClient.authentication(assertion)
            )
            #expect(replayed.status == 400)
            #expect(replayed.errorCode == "invalid_client")
            #expect(sandbox.server.counters.rejections(.clientAssertionReplay) == 1)

            let atPAR = try await client.pushAuthorization(
                FlowSecrets(),
                authentication: ConfidentialTestClient.authentication(assertion)
            )
            #expect(atPAR.errorCode == "invalid_client")
            #expect(sandbox.server.counters.rejections(.clientAssertionReplay) == 2)
            #expect(sandbox.server.counters.clientAssertionsRefused == 2)
        }
    }

    @Test("a code exchange without an assertion is refused before the code is spent")
    func exchangeWithoutAssertion() async throws {
        let key = TestSigningKey(kid: "key-1")
        try await withSandbox(try ConfidentialDocuments.configuration(keys: [key])) { sandbox in
            let client = ConfidentialTestClient(sandbox)
            let flow = FlowSecrets()
            let code = try await client.authorizationCode(flow, key: key)
            let refused = try await client.exchange(code, flow, authentication: [])
            #expect(refused.status == 400)
            #expect(refused.errorCode == "invalid_client")
            #expect(sandbox.server.counters.rejections(.clientAssertionMissing) == 1)
            let exchanged = try await client.exchange(code, flow, authentication: try client.authentication(key))
            #expect(exchanged.status == 200, "the code should still be good: \(exchanged.text)")
        }
    }

    @Test("aud may be an array that holds the issuer")
    func audienceArray() async throws {
        let key = TestSigningKey(kid: "key-1")
        try await withSandbox(try ConfidentialDocuments.configuration(keys: [key])) { sandbox in
            let client = ConfidentialTestClient(sandbox)
            let tokens = try await client.signIn(key: key)
            let assertion = try client.assertion(key) { _, claims in
                claims["aud"] = [client.endpoints.issuer, "https://elsewhere.example"]
            }
            let refreshed = try await client.refresh(
                tokens.refreshToken,
                authentication: ConfidentialTestClient.authentication(assertion)
            )
            #expect(refreshed.status == 200, "refresh failed: \(refreshed.text)")
        }
    }

    @Test("a public client that sends an assertion is refused")
    func publicClientWithAssertion() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let key = TestSigningKey(kid: "key-1")
            let assertion = try key.assertion(
                clientID: client.clientID,
                audience: sandbox.endpoints.issuer,
                issuedAt: sandbox.clock.now()
            )
            let pushed = try await client.pushedAuthorizationResponse(
                client.parParameters(FlowSecrets()) + ConfidentialTestClient.authentication(assertion)
            )
            #expect(pushed.status == 400)
            #expect(pushed.errorCode == "invalid_client")
            #expect(sandbox.server.counters.rejections(.clientAssertionInvalid) == 1)

            let tokens = try await client.signIn()
            let parameters = [
                ("grant_type", "refresh_token"), ("refresh_token", tokens.refreshToken), ("client_id", client.clientID),
            ]
            let refresh = try await client.tokenRequest(parameters + ConfidentialTestClient.authentication(assertion))
            #expect(refresh.errorCode == "invalid_client")
            #expect(sandbox.server.counters.clientAssertionsRefused == 2)
        }
    }

    @Test("a confidential client's token is revoked only with its client_id and assertion")
    func revocationNeedsAssertion() async throws {
        let key = TestSigningKey(kid: "key-1")
        try await withSandbox(try ConfidentialDocuments.configuration(keys: [key])) { sandbox in
            let client = ConfidentialTestClient(sandbox)
            let tokens = try await client.signIn(key: key)
            let withClientID = try await client.revoke(tokens.refreshToken, authentication: [])
            #expect(withClientID.status == 400)
            #expect(withClientID.errorCode == "invalid_client")
            let anonymous = try await client.revoke(tokens.refreshToken, authentication: [], sendsClientID: false)
            #expect(anonymous.status == 400)
            #expect(anonymous.errorCode == "invalid_request")  // client_id is required, as at the reference server.
            #expect(sandbox.server.counters.rejections(.clientAssertionMissing) == 1)
            #expect(sandbox.server.counters.revocations == 0)
            #expect(try await client.getSession(tokens.accessToken).status == 200)
        }
    }
}
