/// An error of atoauth: its category, a message for people (its `description`), and what to do about it.
///
/// Every public error type of the package conforms, so a front end handles any of them through this protocol alone:
/// the category picks the signal, the description and the remedy make the words. Neither ever holds a token or a
/// key.
public protocol CategorizedError: Error, Sendable, CustomStringConvertible {
    /// What the failure means for whoever meets it.
    var category: FailureCategory { get }
    /// What the user can do about it; by default nothing particular.
    var remedy: Remedy { get }
}

extension CategorizedError {
    /// Nothing particular.
    public var remedy: Remedy { .none }
}
