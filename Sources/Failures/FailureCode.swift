/// The one code of an error type with one kind of failure, named after the type, such as `CallTimeoutError`.
///
/// An error type with several kinds of failure declares its codes as a `@nonexhaustive` enum instead
/// (``CategorizedError/Code``, such as `AccountError.Code`): each code is a case with what it means, compared with
/// `==` (`error.code == .noSuchAccount`), never with another type's. The set is open: a new code never breaks a
/// caller, whose `switch` over codes has a `default` case.
public struct FailureCode<Failure>: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, such as `noSuchAccount`.
    public let name: String

    /// The code named `name`.
    public init(_ name: String) { self.name = name }

    /// The code's name.
    public var description: String { name }
}
