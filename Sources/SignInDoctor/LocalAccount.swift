public import Foundation
public import OAuthSessionManager

/// What this machine keeps for a signed-in account, read without changing anything: the session, whether a
/// refresh was left unsettled, and where the store is.
public struct LocalAccount: Sendable {
    /// How a refresh that sent the stored refresh token ended without settling.
    public enum UnsettledRefresh: Sendable, Hashable {
        /// The process was cut off after the request was sent and before its outcome was saved.
        case cutOff
        /// The request got no answer in time, or its connection broke after it was sent.
        case unanswered
    }

    /// What the PDS answered when asked once with the stored access token (`com.atproto.server.getSession`, no
    /// refresh).
    public enum SessionAnswer: Sendable, Hashable {
        /// The PDS accepts the token.
        case accepted
        /// The PDS refused the token (`invalid_token`, HTTP 401): the server revoked or ended the session. The
        /// reason, as the PDS gave it, without the token.
        case refused(String)
        /// The PDS could not be asked, or answered otherwise; why.
        case unanswered(String)
    }

    /// Where the account is kept.
    public enum Store: Sendable, Hashable {
        /// The encrypted files under a home directory, and the key file when one is used.
        case files(home: URL, keyFile: URL?)
        /// A PostgreSQL database (described without its password); the home keeps this machine's nonce cache.
        case database(description: String, home: URL)
    }

    /// The stored session; its tokens are never shown.
    public var session: Session
    /// A refresh left unsettled, from the refresh journal's note; `nil` when none.
    public var unsettledRefresh: UnsettledRefresh?
    /// Where the account is kept.
    public var store: Store
    /// The last refresh that failed and kept the session (a server error, a network failure): when, and why.
    public var lastRefreshFailure: (at: Date, reason: String)? = nil
    /// What the PDS said of the stored access token; `nil` when it was not asked (see ``canAskPDS(at:)``).
    public var sessionAnswer: SessionAnswer? = nil

    /// Creates the local state of an account with no refresh failure on record and the PDS not asked.
    public init(session: Session, unsettledRefresh: UnsettledRefresh? = nil, store: Store) {
        self.session = session
        self.unsettledRefresh = unsettledRefresh
        self.store = store
    }

    /// Whether the PDS can be asked about the session without a refresh.
    ///
    /// It can while the stored access token has not expired and the session has not ended; the doctor never
    /// refreshes, so otherwise it does not ask.
    public func canAskPDS(at now: Date) -> Bool {
        session.endsAtLatest > now && (session.accessTokenExpiresAt.map { $0 > now } ?? true)
    }

    /// The checks of the local side, in order.
    static let checks: [(name: String, rule: String)] = [
        ("store-files", Rule.storeFiles), ("session-expiry", Rule.sessionLifetime),
        ("last-refresh", Rule.sessionLifetime), ("account-moved", Rule.identityMoved),
        ("session-live", Rule.liveSession),
    ]

    /// Every local check, skipped for the same reason.
    static func skippedChecks(because why: String) -> [Finding] {
        checks.map { Finding.skip($0.name, why, rule: $0.rule) }
    }

    /// The local checks when the store, or the account's session in it, cannot be read: `store-files` fails, for
    /// the user, and the others are skipped.
    static func unreadable(_ reason: String) -> [Finding] {
        let failure = Finding.fail(
            "store-files",
            "this machine's store could not be read: \(reason)",
            rule: Rule.storeFiles,
            fix: "Give the key the store was made with (its key file, ATOAUTH_KEY_FILE, or ATOAUTH_PASSPHRASE) and "
                + "check that its files or database (--store) are reachable and intact; `atoauth accounts list` names "
                + "each session that cannot be read, and signing in again replaces one.",
            who: .user
        )
        let others = checks.dropFirst().map { Finding.skip($0.name, "the store could not be read", rule: $0.rule) }
        return [failure] + others
    }

    /// The findings of the local side; `identity` and `server` are what the diagnosis resolved just now.
    func findings(now: Date, identity: IdentityExamination, server: ServerExamination?) -> [Finding] {
        [
            StoreFiles.finding(store),
            expiryFinding(now: now),
            refreshFinding(now: now),
            movedFinding(identity: identity, server: server),
            liveFinding(now: now),
        ]
    }

    private var signInAgain: String {
        "atoauth accounts add \(session.displayName)"
    }

    private func expiryFinding(now: Date) -> Finding {
        let end = session.endsAtLatest
        let endText = Self.timestamp(end)
        let access =
            session.accessTokenExpiresAt.map {
                $0 > now
                    ? "the access token is valid until \(Self.timestamp($0))"
                    : "the access token expired at \(Self.timestamp($0)) and is refreshed on next use"
            } ?? "the access token's expiry is unknown"
        let ceiling =
            session.endIsRenewedByRefresh
            ? "the session lasts until \(endText) unless refreshed before"
            : "the session ends at the latest at \(endText), two weeks after sign-in"
        guard end > now else {
            return .fail(
                "session-expiry",
                "the session ended at \(endText)",
                rule: Rule.sessionLifetime,
                fix: "Sign in again: \(signInAgain).",
                who: .user
            )
        }
        if end.timeIntervalSince(now) < 86_400 {
            return .warn(
                "session-expiry",
                "\(access); \(ceiling), in less than a day",
                rule: Rule.sessionLifetime,
                fix: "Sign in again before then (\(signInAgain)), so nothing that runs as this account is "
                    + "interrupted.",
                who: .user
            )
        }
        return .pass("session-expiry", "\(access); \(ceiling)", rule: Rule.sessionLifetime)
    }

    private func refreshFinding(now: Date) -> Finding {
        let issued =
            session.updatedAt > session.createdAt
            ? "tokens last issued by a refresh at \(Self.timestamp(session.updatedAt))"
            : "not refreshed since sign-in at \(Self.timestamp(session.createdAt))"
        guard let unsettledRefresh else {
            if let failure = lastRefreshFailure, failure.at > session.updatedAt {
                return .warn(
                    "last-refresh",
                    "\(issued); the refresh at \(Self.timestamp(failure.at)) failed and kept the session: \(failure.reason)",
                    rule: Rule.sessionLifetime,
                    fix: "The next call tries again. If it keeps failing, check the network, then the authorization "
                        + "server (the checks above); the session stays until a refresh succeeds or it ends.",
                    who: .server
                )
            }
            return .pass("last-refresh", "\(issued); no refresh is left unsettled", rule: Rule.sessionLifetime)
        }
        let what =
            switch unsettledRefresh {
            case .cutOff: "a refresh was cut off after sending the refresh token, before its answer was saved"
            case .unanswered: "a refresh sent the refresh token and got no answer in time"
            }
        return .fail(
            "last-refresh",
            "\(issued); \(what) (the refresh journal keeps a note)",
            rule: Rule.sessionLifetime,
            fix: "The server may have spent the refresh token, and sending it again would end the session as a "
                + "replay; the next refresh ends the session here instead. Sign in again: \(signInAgain).",
            who: .user
        )
    }

    private func movedFinding(identity: IdentityExamination, server: ServerExamination?) -> Finding {
        guard let pds = identity.pds else {
            return .skip("account-moved", "the account's PDS could not be resolved now", rule: Rule.identityMoved)
        }
        if pds.absoluteString != session.pds.absoluteString {
            return .fail(
                "account-moved",
                "the DID document now names the PDS \(pds.absoluteString); the session was made with "
                    + session.pds.absoluteString,
                rule: Rule.identityMoved,
                fix: "The account moved to another PDS: its tokens belong to the old one. Sign in again: "
                    + "\(signInAgain).",
                who: .user
            )
        }
        if session.kind == .oauth, let server, let issuer = server.issuer, issuer != session.issuer {
            let seen =
                "the PDS now names the authorization server \(issuer); the session was issued by \(session.issuer)"
            // Signing in again goes to the server the PDS names now: no use while its checks above fail.
            guard !server.findings.contains(where: { $0.status == .fail }) else {
                return .fail(
                    "account-moved",
                    seen,
                    rule: Rule.identityMoved,
                    fix: "A sign-in would go to \(issuer), which fails the checks above: its operator, or the PDS's, "
                        + "must fix that first; signing in again before then fails too.",
                    who: .server
                )
            }
            return .fail(
                "account-moved",
                seen,
                rule: Rule.identityMoved,
                fix: "The account's authorization server changed: its tokens belong to the old one. Sign in again: "
                    + "\(signInAgain).",
                who: .user
            )
        }
        let issuer =
            switch (session.kind, server?.issuer) {
            case (.oauth, .some): " and the authorization server \(session.issuer)"
            case (.oauth, nil): " (its authorization server could not be checked)"
            default: ""
            }
        return .pass("account-moved", "still at the PDS \(pds.absoluteString)\(issuer)", rule: Rule.identityMoved)
    }

    private func liveFinding(now: Date) -> Finding {
        let asked = "com.atproto.server.getSession with the stored access token, once, nothing refreshed"
        switch sessionAnswer {
        case .accepted?:
            return .pass("session-live", "the PDS accepts the session (\(asked))", rule: Rule.liveSession)
        case .refused(let reason)?:
            let valid = session.accessTokenExpiresAt.map { ", which is valid until \(Self.timestamp($0))," } ?? ""
            return .fail(
                "session-live",
                "the PDS refused the access token\(valid) so the server revoked or ended the session: \(reason) "
                    + "(\(asked))",
                rule: Rule.liveSession,
                fix: "Sign in again: \(signInAgain). (The doctor changes nothing here; the next command that uses the "
                    + "account deletes the ended session.)",
                who: .user
            )
        case .unanswered(let reason)?:
            return .fail(
                "session-live",
                "the PDS could not say whether it accepts the session: \(reason) (\(asked))",
                rule: Rule.liveSession,
                fix: "Check the network and the PDS (the checks above), then run the doctor again; `atoauth accounts "
                    + "status --check` asks too.",
                who: .server
            )
        case nil:
            let why =
                if session.endsAtLatest <= now {
                    "the session has ended (session-expiry)"
                } else if let expiry = session.accessTokenExpiresAt, expiry <= now {
                    "the access token expired at \(Self.timestamp(expiry)); asking with it would take a refresh, "
                        + "which the doctor never does (`atoauth accounts status --check` refreshes and asks)"
                } else {
                    "the PDS was not asked"
                }
            return .skip("session-live", why, rule: Rule.liveSession)
        }
    }

    private static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
