import ATProtoSyntax
public import Failures

/// A permission scope that cannot be parsed or built (atproto.com/specs/permission, Scope String Syntax).
///
/// The ``description`` names the offending token, shortened to at most 200 characters, and says what is wrong in one
/// sentence. Compare ``code`` to tell failures apart; new codes may be added without breaking callers.
public struct PermissionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem a ``PermissionError`` reports: compared with `==`, as in `error.code == .invalidValue`.
    ///
    /// New codes may come in a later version: a `switch` over them needs a `default` case.
    @nonexhaustive
    public enum Code: String, NamedFailureCode {
        /// The token breaks the general syntax: a space, control or non-ASCII character, or bad percent-encoding.
        case malformed
        /// The resource name (the part before `:` or `?`) is not one this module knows.
        case unknownResource
        /// A parameter name is not defined for the resource; names are case-sensitive.
        case unknownParameter
        /// A required parameter is absent.
        case missingParameter
        /// A single-valued parameter is given more than once.
        case repeatedParameter
        /// Two parameters cannot be combined, such as a positional value and the same parameter by name.
        case conflictingParameters
        /// A parameter value has the wrong syntax or is not one of the allowed values.
        case invalidValue
    }

    /// The name ``Code`` had before it was an enum.
    @available(*, deprecated, renamed: "Code")
    public typealias Kind = Code

    /// The longest part of a token that an error quotes, in characters.
    static let maximumQuotedLength = 200

    /// What kind of problem this is.
    public let code: Code
    /// The offending token, without control, format or line-separator characters, shortened to at most 200
    /// characters.
    public let token: String
    /// What is wrong with the token, in words.
    public let reason: String

    private init(_ code: Code, _ token: String, _ reason: String) {
        self.code = code
        self.token = QuotedText.printable(token, limit: Self.maximumQuotedLength)
        self.reason = reason
    }

    /// What kind of problem this is: the name ``code`` had before.
    @available(*, deprecated, renamed: "code")
    public var kind: Code { code }

    /// The message, in the form `Invalid permission scope “<token>”: <reason>.`, as one sentence.
    public var description: String { "Invalid permission scope “\(token)”: \(reason)." }

    static func malformed(_ token: String, _ reason: String) -> PermissionError {
        PermissionError(.malformed, token, reason)
    }

    static func unknownResource(_ token: String, _ resource: String) -> PermissionError {
        PermissionError(
            .unknownResource,
            token,
            "\(quoted(resource)) is not a known resource; names are case-sensitive"
        )
    }

    static func unknownParameter(_ token: String, _ resource: String, _ name: String) -> PermissionError {
        PermissionError(.unknownParameter, token, "“\(resource)” has no parameter \(quoted(name))")
    }

    static func missingParameter(_ token: String, _ resource: String, _ name: String) -> PermissionError {
        PermissionError(.missingParameter, token, "“\(resource)” needs a value for “\(name)”")
    }

    static func repeatedParameter(_ token: String, _ name: String) -> PermissionError {
        PermissionError(.repeatedParameter, token, "“\(name)” may be given only once")
    }

    static func conflictingParameters(_ token: String, _ reason: String) -> PermissionError {
        PermissionError(.conflictingParameters, token, reason)
    }

    static func invalidValue(_ token: String, _ name: String, _ value: String, expected: String) -> PermissionError {
        let what =
            value.isEmpty ? "the value of “\(name)” is empty" : "\(quoted(value)) is not a valid “\(name)”"
        return PermissionError(.invalidValue, token, "\(what): expected \(expected)")
    }

    /// A value in quotation marks, without control characters, shortened to 60 characters.
    static func quoted(_ value: String) -> String { "“\(QuotedText.printable(value, limit: 60))”" }
}

extension PermissionError: CategorizedError {
    /// A malformed permission is input that cannot be used.
    public var category: FailureCategory { .usage }

    /// The caller's input: the permission as written.
    public var origin: FailureOrigin { .input }

    /// Write it as the permission specification gives.
    public var remedy: Remedy { .fixPermission }
}
