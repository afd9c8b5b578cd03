import ATProtoSyntax
public import Failures
public import OAuthSessionManager
import WireFormat

/// A failure to find or use a signed-in account: none is signed in, none is active, no account matches, the session
/// ended (the server refused to refresh it), or the PDS refused the session even after a refresh.
///
/// Each of these means the user has to sign in (again) or choose another account; when the error is about one
/// account, ``account`` and ``requestedScope`` say how to sign it in again. The error never carries a token.
public struct AccountError: CategorizedError, Hashable {
    /// Which failure an ``AccountError`` is, whatever its details: compared with `==`, as in
    /// `error.code == .noAccounts`.
    ///
    /// New codes may come in a later version: a `switch` over them needs a `default` case.
    @nonexhaustive
    public enum Code: String, NamedFailureCode {
        /// No account is signed in here.
        case noAccounts
        /// Accounts are signed in, but none is active.
        case noActiveAccount
        /// No signed-in account has this handle or DID.
        case noSuchAccount
        /// The PDS refused the access token even right after a refresh.
        case sessionRejected
        /// A client bound to one account was asked to act as another.
        case accountMismatch
        /// The request cannot be formed, such as a path that makes no URL.
        case invalidRequest
        /// The authorization server refused to refresh the account's session (`invalid_grant`: revoked, expired, or
        /// ended there), so atoauth deleted it (atproto.com/specs/oauth, Tokens and Session Lifetime).
        case signedOutByServer
        /// The account's session cannot be used any more and was deleted here, for example because a refresh was cut
        /// off and its refresh token may be spent.
        case sessionEnded
        /// The active account has no session here any more: the server or another process ended it.
        case activeAccountSignedOut
        /// `accounts upgrade` was asked to move an account to OAuth that already signs in with it.
        case alreadyOAuth
    }

    /// Which failure this is, whatever its details: `error.code == .noAccounts`.
    public let code: Code
    /// What went wrong, in words, safe to print.
    public let reason: String
    /// The account to sign in again, as the user names it (its handle, else its DID), when the error is about one
    /// account whose session ended.
    public let account: String?
    /// The permissions that account had asked for, to ask for again; `nil` when unknown.
    public let requestedScope: String?
    /// The kind of the session the error is about, when it is about one: an app-password session is signed in
    /// again with an app password (or moved to OAuth).
    public let sessionKind: SessionKind?
    /// The confidential client the ended session belonged to, to sign in as again; `nil` for a public client's.
    public internal(set) var confidentialClientID: String?
    /// What became of the active account when this error is about the active account's session, which ended: as
    /// after ``AccountManager/remove(_:)``, the account signed in most recently is active now, or none is.
    public internal(set) var activeChange: ActiveAccountChange?

    init(
        _ code: Code,
        _ reason: String,
        account: String? = nil,
        requestedScope: String? = nil,
        sessionKind: SessionKind? = nil
    ) {
        self.code = code
        self.sessionKind = sessionKind
        self.reason = TerminalText.sanitized(reason)
        self.account = account.map { TerminalText.sanitized($0) }
        self.requestedScope = requestedScope.map { TerminalText.sanitized($0) }
    }

    /// Whether both errors are the same failure, ignoring the details.
    @available(*, deprecated, message: "Compare codes instead: error.code == .name")
    public func hasSameCode(as other: AccountError) -> Bool { code == other.code }

    /// What the user can do about this failure.
    public var remedy: Remedy {
        guard let account else {
            return switch code {
            case .noActiveAccount: .chooseAccount
            case .accountMismatch, .invalidRequest, .alreadyOAuth: .none
            default: .signIn
            }
        }
        if sessionKind == .appPassword, [.signedOutByServer, .sessionEnded, .sessionRejected].contains(code) {
            return .signInAgainWithAppPassword(account: account)
        }
        if let confidentialClientID, [.signedOutByServer, .sessionEnded, .activeAccountSignedOut].contains(code) {
            return .signInAgainAsClient(account: account, clientID: confidentialClientID, scope: requestedScope)
        }
        return switch code {
        case .noSuchAccount: .signInAs(account: account)
        case .activeAccountSignedOut: .signInAgain(account: account, scope: requestedScope, orSwitch: true)
        case .accountMismatch, .invalidRequest, .alreadyOAuth: .none
        default: .signInAgain(account: account, scope: requestedScope, orSwitch: false)
        }
    }

    /// `usage` when the caller asked for something that cannot be (an account the client is not bound to, a request
    /// that cannot be formed, an upgrade of an OAuth account); `signInNeeded` for an account that needs signing in.
    public var category: FailureCategory {
        [.accountMismatch, .invalidRequest, .alreadyOAuth].contains(code) ? .usage : .signInNeeded
    }

    /// A sentence for people.
    public var description: String {
        switch activeChange {
        case .switched(let account)?: summary + " \(account.displayName) is the active account now."
        case .noneActive?: summary + " No account is active now."
        case .unchanged?, nil: summary
        }
    }

    private var summary: String {
        switch code {
        case .noAccounts: "No account is signed in here."
        case .noActiveAccount: "No account is active (\(reason))."
        case .noSuchAccount: "No signed-in account is \(reason)."
        case .sessionRejected: "The server no longer accepts the session: \(reason)."
        case .accountMismatch: "Wrong account: \(reason)."
        case .invalidRequest: "The request cannot be sent: \(reason)."
        case .signedOutByServer: "\(account ?? "The account") was signed out by the server: \(reason)."
        case .sessionEnded: "The session of \(account ?? "the account") ended: \(reason)."
        case .activeAccountSignedOut: "The active account \(account ?? "") is no longer signed in: \(reason)."
        case .alreadyOAuth: "\(account ?? "The account") already signs in with OAuth: \(reason)."
        }
    }

    /// No account is signed in here.
    public static let noAccounts = AccountError(.noAccounts, "none")

    /// Accounts are signed in, but none is active.
    public static func noActiveAccount(_ reason: String) -> AccountError { AccountError(.noActiveAccount, reason) }

    /// No signed-in account has this handle or DID.
    public static func noSuchAccount(_ handleOrDID: String) -> AccountError {
        AccountError(.noSuchAccount, handleOrDID, account: handleOrDID)
    }

    /// The PDS refused the access token even right after a refresh.
    public static func sessionRejected(
        _ reason: String,
        account: String? = nil,
        kind: SessionKind? = nil
    ) -> AccountError {
        AccountError(.sessionRejected, reason, account: account, sessionKind: kind)
    }

    /// The request cannot be formed, such as a path that makes no URL.
    public static func invalidRequest(_ reason: String) -> AccountError { AccountError(.invalidRequest, reason) }

    /// The authorization server refused to refresh the session of `account` (`invalid_grant`: revoked, expired, or
    /// ended there), so atoauth deleted it (atproto.com/specs/oauth, Tokens and Session Lifetime).
    public static func signedOutByServer(
        _ account: String,
        requestedScope: String?,
        reason: String,
        kind: SessionKind? = nil
    ) -> AccountError {
        AccountError(.signedOutByServer, reason, account: account, requestedScope: requestedScope, sessionKind: kind)
    }

    /// The session of `account` cannot be used any more and was deleted here, for example because a refresh was cut
    /// off and its refresh token may be spent.
    public static func sessionEnded(
        _ account: String,
        requestedScope: String?,
        reason: String,
        kind: SessionKind? = nil
    ) -> AccountError {
        AccountError(.sessionEnded, reason, account: account, requestedScope: requestedScope, sessionKind: kind)
    }

    /// The session of an account ended here because the confidential client's key it was bound to was removed from
    /// the key set while it used it (a forced removal), which also ends it at the authorization server: sign in
    /// again as the same client, with a key it publishes.
    static func clientKeyRemoved(_ record: EndedSessionRecord) -> AccountError {
        var error = AccountError(
            .sessionEnded,
            "the client key \(record.clientKeyID) it was bound to was removed from the key set while the session used "
                + "it, so it was signed out here and at the authorization server",
            account: record.handle?.description ?? record.did.rawValue,
            requestedScope: record.requestedScope ?? record.scope,
            sessionKind: .oauth
        )
        error.confidentialClientID = record.clientID
        return error
    }

    /// `accounts upgrade` was asked to move an account to OAuth that already signs in with it.
    public static func alreadyOAuth(_ account: String) -> AccountError {
        AccountError(
            .alreadyOAuth,
            "only an app-password session can be upgraded, and nothing was changed",
            account: account,
            sessionKind: .oauth
        )
    }

    /// The active account, `did`, has no session here any more: the server or another process ended it.
    public static func activeAccountSignedOut(_ did: String) -> AccountError {
        AccountError(
            .activeAccountSignedOut,
            "its session was ended by the server or by another atoauth process",
            account: did
        )
    }

    /// A client bound to one account was asked to act as another.
    public static func accountMismatch(_ reason: String) -> AccountError { AccountError(.accountMismatch, reason) }
}

extension AccountError {
    /// Where the failure lies: the caller's input for an account not signed in here (none, none active, not
    /// this one) or a request that cannot be formed; the account for a session that ended, an account bound
    /// elsewhere or already on OAuth.
    public var origin: FailureOrigin {
        switch code {
        case .noAccounts, .noActiveAccount, .noSuchAccount, .invalidRequest: .input
        case .sessionRejected, .signedOutByServer, .sessionEnded, .activeAccountSignedOut, .accountMismatch,
            .alreadyOAuth:
            .account
        }
    }
}
