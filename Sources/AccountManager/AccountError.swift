import WireFormat

/// A failure to find or use a signed-in account: none is signed in, none is active, no account matches, or the
/// PDS refused the session even after a refresh.
///
/// Each of these means the user has to sign in (again) or choose another account. The error never carries a token.
public struct AccountError: Error, Sendable, Hashable, CustomStringConvertible {
    enum Code: Hashable, Sendable {
        case noAccounts
        case noActiveAccount
        case noSuchAccount
        case sessionRejected
        case accountMismatch
        case invalidRequest
    }

    let code: Code
    /// What went wrong, in words, safe to print.
    public let reason: String

    init(_ code: Code, _ reason: String, account: String? = nil) {
        self.code = code
        self.reason = TerminalText.sanitized(reason)
        self.account = account.map { TerminalText.sanitized($0, limit: 300) }
    }

    /// Whether both errors are the same failure, ignoring the details.
    public func hasSameCode(as other: AccountError) -> Bool { code == other.code }

    /// What a user does about it, in words: the kind of failure, for a front end that adds its own commands.
    public enum Remedy: Sendable, Hashable {
        /// Sign in for the first time.
        case signIn
        /// Choose one of the signed-in accounts.
        case chooseAccount
        /// Sign in (again) as the account named.
        case signInAs(String)
        /// Nothing a sign-in fixes: the request itself is wrong.
        case none
    }

    /// What the user can do about this failure.
    public var remedy: Remedy {
        switch code {
        case .noAccounts: .signIn
        case .noActiveAccount: .chooseAccount
        case .noSuchAccount, .sessionRejected: account.map(Remedy.signInAs) ?? .signIn
        case .accountMismatch, .invalidRequest: .none
        }
    }

    /// The handle or DID the failure is about, when there is one.
    public let account: String?

    /// Whether the caller asked for something that cannot be (an account that the client is not bound to), rather
    /// than an account that needs signing in.
    public var isUsageError: Bool { code == .accountMismatch || code == .invalidRequest }

    /// A sentence for people.
    public var description: String {
        switch code {
        case .noAccounts: "No account is signed in here."
        case .noActiveAccount: "No account is active (\(reason))."
        case .noSuchAccount: "No signed-in account is \(reason)."
        case .sessionRejected: "The server no longer accepts the session: \(reason)."
        case .accountMismatch: "Wrong account: \(reason)."
        case .invalidRequest: "The request cannot be sent: \(reason)."
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
    public static func sessionRejected(_ reason: String, account: String? = nil) -> AccountError {
        AccountError(.sessionRejected, reason, account: account)
    }

    /// The request cannot be formed, such as a path that makes no URL.
    public static func invalidRequest(_ reason: String) -> AccountError { AccountError(.invalidRequest, reason) }

    /// A client bound to one account was asked to act as another.
    public static func accountMismatch(_ reason: String) -> AccountError { AccountError(.accountMismatch, reason) }
}
