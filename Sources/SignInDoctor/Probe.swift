import DPoPRequestExecutor
import Foundation
import HTTPTransport
import OAuthMetadata
import OAuthSessionManager
import Synchronization
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
typealias ProbeAnswer = AuthorizationServerPoster.Attempt

extension AuthorizationServerPoster.Attempt {
    var nonce: String? { response.headers["DPoP-Nonce"] }
    var error: ServerErrorBody { ServerErrorBody(response.body) }
    var asksForNonce: Bool { response.status == 400 && error.error == "use_dpop_nonce" }
}

/// The answers the probe saw, as they arrive.
private final class ProbeAnswers: Sendable {
    private let answers = Mutex<[ProbeAnswer]>([])

    func append(_ answer: ProbeAnswer) { answers.withLock { $0.append(answer) } }

    var all: [ProbeAnswer] { answers.withLock { $0 } }
}

extension SignInDoctor {
    /// Sends the pushed authorization request a sign-in would send — the engine's own request and nonce retry
    /// (``PushedAuthorizationRequest``), with a new DPoP key, PKCE verifier and nonce cache that are then
    /// forgotten — and reports whether the server accepts it and the scope, how it handles DPoP nonces, and whether
    /// its clock agrees with this one (RFC 9126 §2, RFC 9449 §8), within what a `confidential` client's assertions
    /// allow when it is one.
    func probe(
        _ endpoint: URL,
        issuer: String,
        client: OAuthClient,
        loginHint: String?,
        confidential: Bool = false
    ) async -> [Finding] {
        var request = PushedAuthorizationRequest(
            client: client,
            codeChallenge: PKCE.generate().challenge,
            state: OAuthState.generate()
        )
        request.loginHint = loginHint
        let poster = AuthorizationServerPoster(fetcher: fetcher, now: configuration.now)
        let seen = ProbeAnswers()
        let failure: (any Error)?
        do {
            _ = try await request.send(to: endpoint, key: DPoPKey(), through: poster) { attempt in
                seen.append(attempt)
            }
            failure = nil
        } catch {
            failure = error
        }
        // A nonce challenge repeated or without a nonce ends the request in an error, but its answers were seen and
        // are what the findings judge.
        let answers = seen.all
        guard let first = answers.first else {
            let reason = failure.map(Self.reason(of:)) ?? "no answer"
            return Probe.checks.map { check in
                check.name == "par-request"
                    ? .fail(
                        "par-request",
                        "\(endpoint.absoluteString): \(reason)",
                        rule: check.rule,
                        fix: "The pushed authorization request endpoint must be reachable; if this persists, its "
                            + "operator must check the server.",
                        who: .server
                    )
                    : .skip(check.name, "the pushed authorization request got no answer", rule: check.rule)
            }
        }
        let clock = Self.clockFinding(first, confidential: confidential)
        let skewed = clock.status == .fail
        return [
            Self.requestFinding(answers, endpoint: endpoint, skewedClock: skewed),
            Self.scopeFinding(answers[answers.count - 1], scope: client.scope),
            Self.nonceFinding(answers),
            clock,
        ]
    }
}
