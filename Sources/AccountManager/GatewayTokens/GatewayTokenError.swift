public import Failures
import WireFormat

/// A named gateway token that cannot be made, found or read.
///
/// Nothing in it is secret: a token never appears, only its name.
public struct GatewayTokenError: CategorizedError, Hashable {
    /// Which failure a ``GatewayTokenError`` is, whatever its details: compared with `==`, as in
    /// `error.code == .invalidName`.
    ///
    /// New codes may come in a later version: a `switch` over them needs a `default` case.
    @nonexhaustive
    public enum Code: String, NamedFailureCode {
        /// A name with characters other than letters, digits, `.`, `_` and `-`, longer than 64, or reserved.
        case invalidName
        /// A name another token has.
        case nameTaken
        /// No token has the name.
        case unknownName
        /// A permission that does not parse.
        case invalidScope
        /// A lifetime that is not a duration such as `90m`.
        case invalidLifetime
        /// The store's token list cannot be decoded.
        case unreadable
    }

    /// Which failure this is, whatever its details: `error.code == .nameTaken`.
    public let code: Code
    /// What went wrong, in words, safe to print.
    public let reason: String

    init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = TerminalText.sanitized(reason)
    }

    /// A name with characters other than letters, digits, `.`, `_` and `-`, or longer than 64.
    public static func invalidName(_ name: String) -> GatewayTokenError {
        GatewayTokenError(
            .invalidName,
            "A token name is 1 to 64 letters, digits, “.”, “_” or “-”, not “\(TerminalText.sanitized(name, limit: 80))”."
        )
    }

    /// A name the gateway's audit log and metrics use for the start-up token or for no token; its code is
    /// ``Code/invalidName``.
    public static func reservedName(_ name: String) -> GatewayTokenError {
        GatewayTokenError(
            .invalidName,
            "“\(name)” is reserved: the gateway's audit log and metrics name the start-up token “startup” and a request "
                + "without a token “none”. Choose another name."
        )
    }

    /// A name another token has.
    public static func nameTaken(_ name: String) -> GatewayTokenError {
        GatewayTokenError(
            .nameTaken,
            "A gateway token named “\(name)” exists already; revoke it first (atoauth gateway token revoke \(name)) "
                + "or choose another name."
        )
    }

    /// No token has the name.
    public static func unknownName(_ name: String) -> GatewayTokenError {
        GatewayTokenError(
            .unknownName,
            "No gateway token is named “\(TerminalText.sanitized(name, limit: 80))” (atoauth gateway token list)."
        )
    }

    /// A permission that does not parse.
    public static func invalidScope(_ reason: String) -> GatewayTokenError {
        GatewayTokenError(.invalidScope, "The token's --scope cannot be used: \(reason)")
    }

    /// A lifetime that is not a duration such as `90m`.
    public static func invalidLifetime(_ text: String) -> GatewayTokenError {
        GatewayTokenError(
            .invalidLifetime,
            "--expires takes a number with s, m, h or d, such as 8s, 90m, 1h or 7d; not “"
                + "\(TerminalText.sanitized(text, limit: 40))”."
        )
    }

    /// The store's token list cannot be decoded.
    public static func unreadable(_ reason: String) -> GatewayTokenError {
        GatewayTokenError(.unreadable, "The gateway tokens in the account store cannot be read: \(reason).")
    }

    /// `usage` for what the caller gave; `failed` for a store that cannot be read.
    public var category: FailureCategory { code == .unreadable ? .failed : .usage }

    /// The caller's input, or this machine's store.
    public var origin: FailureOrigin { code == .unreadable ? .machine : .input }

    /// The reason.
    public var description: String { reason }

}
