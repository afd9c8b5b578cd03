import DPoPRequestExecutor
import Foundation
import HTTPTransport
import OAuthSessionManager
import WireFormat

/// The checks of the probe: a pushed authorization request sent as a sign-in would send it, then abandoned.
enum Probe {
    static let checks: [(name: String, rule: String)] = [
        ("par-request", Rule.pushedRequest), ("par-scope", Rule.scopeRequest), ("dpop-nonce", Rule.dpopNonce),
        ("server-clock", Rule.clock),
    ]

    /// Every check, skipped for the same reason.
    static func skippedChecks(because why: String) -> [Finding] {
        checks.map { Finding.skip($0.name, why, rule: $0.rule) }
    }

    /// The largest clock difference within which the reference server accepts a DPoP proof's `iat` (190 s old to
    /// 180 s ahead, @atproto/oauth-provider), less a margin.
    static let refusedSkew: TimeInterval = 180
    /// A difference worth a warning.
    static let noticeableSkew: TimeInterval = 30
}

/// One answer of the probe, with the local times the request left and the answer arrived.
struct ProbeAnswer {
    var response: HTTPResponse
    var sentAt: Date
    var receivedAt: Date

    var nonce: String? { response.headers["DPoP-Nonce"] }
    var error: ServerErrorBody { ServerErrorBody(response.body) }
    var asksForNonce: Bool { response.status == 400 && error.error == "use_dpop_nonce" }
}

extension SignInDoctor {
    /// Sends the pushed authorization request a sign-in would send, with a new DPoP key and PKCE verifier that are
    /// then forgotten, and reports whether the server accepts it and the scope, how it handles DPoP nonces, and
    /// whether its clock agrees with this one (RFC 9126 §2, RFC 9449 §8).
    func probe(_ endpoint: URL, issuer: String, client: OAuthClient, loginHint: String?) async -> [Finding] {
        let signer = DPoPProofSigner(key: DPoPKey())
        let pkce = PKCE.generate()
        var form = [
            ("client_id", client.clientID), ("response_type", "code"), ("code_challenge", pkce.challenge),
            ("code_challenge_method", PKCE.method), ("state", OAuthState.generate()),
            ("redirect_uri", client.redirectURI.absoluteString), ("scope", client.scope),
        ]
        if let loginHint { form.append(("login_hint", loginHint)) }
        var answers: [ProbeAnswer] = []
        do {
            let transport = try await fetcher.pinnedTransport(for: endpoint)
            func send(nonce: String?) async throws -> ProbeAnswer {
                var headers: HTTPHeaders = [
                    "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json",
                ]
                let proof = try signer.proof(method: .post, url: endpoint, nonce: nonce, issuedAt: configuration.now())
                headers.add(name: "DPoP", value: proof)
                let request = HTTPRequest(
                    method: .post,
                    url: endpoint,
                    headers: headers,
                    body: Data(FormEncoding.encode(form).utf8)
                )
                let sentAt = configuration.now()
                let response = try await transport.send(request)
                return ProbeAnswer(response: response, sentAt: sentAt, receivedAt: configuration.now())
            }
            answers.append(try await send(nonce: nil))
            if answers[0].asksForNonce, let nonce = answers[0].nonce {
                answers.append(try await send(nonce: nonce))
            }
        } catch {
            return Probe.checks.map { check in
                check.name == "par-request"
                    ? .fail(
                        "par-request",
                        "\(endpoint.absoluteString): \(Self.reason(of: error))",
                        rule: check.rule,
                        fix: "The pushed authorization request endpoint must be reachable; if this persists, its "
                            + "operator must check the server.",
                        who: .server
                    )
                    : .skip(check.name, "the pushed authorization request got no answer", rule: check.rule)
            }
        }
        let clock = Self.clockFinding(answers[0])
        let skewed = clock.status == .fail
        return [
            Self.requestFinding(answers, endpoint: endpoint, skewedClock: skewed),
            Self.scopeFinding(answers[answers.count - 1], scope: client.scope),
            Self.nonceFinding(answers),
            clock,
        ]
    }
}
