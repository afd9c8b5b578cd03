/// An error of atoauth: its category, its origin, its code, a message for people (its `description`), and what to
/// do about it.
///
/// Every public error type of the package conforms, so a front end handles any of them through this protocol alone:
/// the category (with the origin, where the front end answers for someone else) picks the signal, the description
/// and the remedy make the words. Neither ever holds a token or a key.
public protocol CategorizedError: Error, Sendable, CustomStringConvertible {
    /// What the failure means for whoever meets it.
    var category: FailureCategory { get }
    /// Where the failure lies: the caller's input, this machine, the account, or an upstream server.
    var origin: FailureOrigin { get }
    /// The type of ``code``: a type with several kinds of failure declares a `@nonexhaustive` enum `Code`, one case
    /// a failure; a type with one kind needs nothing (``FailureCode``, named after the type).
    associatedtype Code: Hashable, Sendable, CustomStringConvertible = FailureCode<Self>
    /// Which failure it is, whatever its details: compared with `==`, as in `error.code == .noSuchAccount`.
    var code: Code { get }
    /// What the user can do about it; by default nothing particular.
    var remedy: Remedy { get }
}

extension CategorizedError {
    /// Nothing particular.
    public var remedy: Remedy { .none }

    /// For a type that says nothing more: the caller's input for a usage error or a cancellation, the account for a
    /// sign-in needed, an upstream server otherwise.
    public var origin: FailureOrigin {
        switch category {
        case .usage, .cancelled: .input
        case .signInNeeded: .account
        case .securityCheckFailed, .failed: .upstream
        }
    }
}

extension CategorizedError where Code == FailureCode<Self> {
    /// For a type with one kind of failure: one code, named after the type.
    public var code: FailureCode<Self> { FailureCode(String(describing: Self.self)) }
}
