import Foundation
import HTTPTransport
import OAuthMetadata
import OAuthSessionManager
import WireFormat

extension SignInDoctor {
    /// Whether the request was accepted: `201` with a `request_uri` (RFC 9126 §2.2).
    static func requestFinding(_ answers: [ProbeAnswer], endpoint: URL, skewedClock: Bool) -> Finding {
        let answer = answers[answers.count - 1]
        let status = answer.response.status
        if answer.response.isSuccess {
            guard let accepted = PushedAuthorizationRequest.accepted(in: answer.response) else {
                return .fail(
                    "par-request",
                    "HTTP \(status) without a request_uri",
                    rule: Rule.pushedRequest,
                    fix: "The server must answer a pushed authorization request with a request_uri. Its operator "
                        + "must fix it.",
                    who: .server
                )
            }
            let lifetime = accepted.expiresIn.map { ", valid \($0) s" } ?? ""
            let seen = "HTTP \(status): a request_uri was issued\(lifetime), and abandoned (nothing is stored)"
            guard status == 201 else {
                return .warn(
                    "par-request",
                    seen,
                    rule: Rule.pushedRequest,
                    fix: "RFC 9126 §2.2 answers 201 Created; clients accept \(status), but the operator should fix it.",
                    who: .server
                )
            }
            return .pass("par-request", seen, rule: Rule.pushedRequest)
        }
        let error = answer.error
        if error.error == "invalid_scope" {
            return .skip("par-request", "the scope was refused (see par-scope)", rule: Rule.pushedRequest)
        }
        let said = Self.serverSaid(status: status, error)
        let (fix, who): (String, Finding.Party) =
            switch error.error {
            case _ where skewedClock:
                ("The clocks disagree (see server-clock): proofs are refused until they are set right.", .user)
            case "invalid_client", "unauthorized_client":
                ("The server refuses the client: the app's client metadata document must be fixed.", .app)
            case "invalid_dpop_proof":
                (
                    "The server refuses the DPoP proof: check this machine's clock, then report it to the server's "
                        + "operator with this output.", .server
                )
            case "use_dpop_nonce":
                ("The server keeps asking for a DPoP nonce (see dpop-nonce); its operator must fix it.", .server)
            case "invalid_request":
                (
                    "The server refuses the request as the profile shapes it; report it to its operator with this "
                        + "output.", .server
                )
            default:
                ("The server failed the request; if this persists, report it to its operator.", .server)
            }
        return .fail("par-request", said, rule: Rule.pushedRequest, fix: fix, who: who)
    }

    /// Whether the server accepts the scope: an `invalid_scope` answer names what it refuses.
    static func scopeFinding(_ answer: ProbeAnswer, scope: String) -> Finding {
        let error = answer.error
        if answer.response.isSuccess {
            return .pass("par-scope", "the server accepts “\(scope)”", rule: Rule.scopeRequest)
        }
        guard error.error == "invalid_scope" else {
            return .skip(
                "par-scope",
                "the request failed before the scope was judged (see par-request)",
                rule: Rule.scopeRequest
            )
        }
        let said = Self.serverSaid(status: answer.response.status, error)
        let setProblem =
            scope.contains("include:")
            && (error.explanation?.localizedCaseInsensitiveContains("permission set") ?? true)
        let fix =
            setProblem
            ? "A permission set the scope includes does not resolve: its NSID's authority must publish the set's "
                + "lexicon (com.atproto.lexicon.schema), or the app must stop asking for it."
            : "Ask only for scopes this server accepts (atproto.com/specs/permission): drop or correct the token "
                + "it names, such as an rpc: permission whose aud it refuses."
        return .fail("par-scope", "“\(scope)” is refused: \(said)", rule: Rule.scopeRequest, fix: fix, who: .app)
    }

    /// Whether the server issues DPoP nonces and accepts its own, and what the retry's answer brought (RFC 9449 §8).
    static func nonceFinding(_ answers: [ProbeAnswer]) -> Finding {
        let first = answers[0]
        let nonces = answers.compactMap(\.nonce)
        guard !nonces.isEmpty else {
            return .fail(
                "dpop-nonce",
                first.asksForNonce
                    ? "the server asked for a DPoP nonce (use_dpop_nonce) without sending one"
                    : "no answer carried a DPoP-Nonce header",
                rule: Rule.dpopNonce,
                fix: "The AT Protocol profile requires the authorization server to issue DPoP nonces and rotate "
                    + "them; its operator must turn them on.",
                who: .server
            )
        }
        if answers.count > 1, answers[1].asksForNonce {
            return .fail(
                "dpop-nonce",
                "the server refused a proof carrying the nonce it had just sent (a nonce loop)",
                rule: Rule.dpopNonce,
                fix: "The server's nonces must be accepted for a while after they are issued; its operator must "
                    + "fix the rotation (several instances sharing one secret, and clocks in step).",
                who: .server
            )
        }
        guard first.asksForNonce else {
            return .pass("dpop-nonce", "a nonce was issued without being required first", rule: Rule.dpopNonce)
        }
        // When to give a new nonce is the server's choice (RFC 9449 §8.2); servers rotate them periodically, so two
        // requests a moment apart see a new one only by chance, and a repeated or absent one is no fault.
        let unobservable =
            "two requests a moment apart cannot observe rotation, which servers make periodically (every few minutes "
            + "at the reference server)"
        let retryNonce = answers.count > 1 ? answers[1].nonce : nil
        let rotation =
            switch retryNonce {
            case .some(let nonce) where nonce != first.nonce: "the retry's answer brought a new nonce"
            case .some: "the retry's answer repeated the same nonce; \(unobservable)"
            case nil: "the retry's answer carried no DPoP-Nonce header, so the same nonce stays in use; \(unobservable)"
            }
        return .pass(
            "dpop-nonce",
            "the server asked for a nonce (use_dpop_nonce) and accepted the retry carrying it; \(rotation)",
            rule: Rule.dpopNonce
        )
    }

    /// Whether the server's `Date` agrees with the local clock, within the window DPoP proofs are accepted in, or
    /// the narrower one of a `confidential` client's assertions (``ClientAssertion/backdating`` either side).
    static func clockFinding(_ answer: ProbeAnswer, confidential: Bool = false) -> Finding {
        guard let header = answer.response.headers["Date"], let serverTime = HTTPDate.parse(header) else {
            return .warn(
                "server-clock",
                "the answer has no valid Date header",
                rule: Rule.clock,
                fix: "Every HTTP answer carries the server's time (RFC 9110 §6.6.1); without it clock problems "
                    + "cannot be told. Report it to the server's operator.",
                who: .server
            )
        }
        // The answer was made between sending and receiving, and `Date` drops the fraction of its second.
        let earliest = answer.sentAt.timeIntervalSince1970.rounded(.down)
        let latest = answer.receivedAt.timeIntervalSince1970
        let time = serverTime.timeIntervalSince1970
        let skew = time < earliest ? time - earliest : max(0, time - latest)
        let amount = skew == 0 ? "agrees with this machine's" : Self.describe(skew)
        let seen = "the server's clock \(amount) (Date: \(header))"
        let (limit, refusal) =
            confidential
            ? (
                ClientAssertion.backdating,
                "The client's assertions carry this machine's time and are refused more than "
                    + "\(Int(ClientAssertion.backdating)) seconds off (the server takes them at most a minute old, "
                    + "never from its future)"
            )
            : (Probe.refusedSkew, "DPoP proofs carry this machine's time and are refused more than about 3 minutes off")
        if abs(skew) >= limit {
            return .fail(
                "server-clock",
                seen,
                rule: Rule.clock,
                fix: refusal + ". Set this machine's clock (timedatectl set-ntp true); if it is right, the server's "
                    + "operator must fix theirs.",
                who: .user
            )
        }
        if abs(skew) >= Probe.noticeableSkew {
            return .warn(
                "server-clock",
                seen,
                rule: Rule.clock,
                fix: "Proofs still pass, but little margin is left: set this machine's clock from NTP.",
                who: .user
            )
        }
        return .pass("server-clock", seen, rule: Rule.clock)
    }

    private static func describe(_ skew: TimeInterval) -> String {
        let seconds = Int(abs(skew).rounded(.up))
        let amount = seconds >= 120 ? "\(seconds / 60) min \(seconds % 60) s" : "\(seconds) s"
        return "is \(amount) \(skew > 0 ? "ahead of" : "behind") this machine's"
    }

    private static func serverSaid(status: Int, _ error: ServerErrorBody) -> String {
        var text = "HTTP \(status)"
        if let code = error.error { text += " \(TerminalText.sanitized(code, limit: 80))" }
        if let explanation = error.explanation { text += ": \(TerminalText.sanitized(explanation, limit: 300))" }
        return text
    }
}
