/// A code of an error type with several kinds of failure: a case of its `@nonexhaustive` enum `Code`, named by its
/// raw value, such as `AccountError.Code.noSuchAccount`.
///
/// The set is open: a new case never breaks a caller, whose `switch` over codes has a `default` case.
public protocol NamedFailureCode: RawRepresentable<String>, Hashable, Sendable, CustomStringConvertible {}

extension NamedFailureCode {
    /// The code's name, such as `noSuchAccount`.
    public var description: String { rawValue }
}
