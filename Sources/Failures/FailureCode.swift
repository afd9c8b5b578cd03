/// Which failure an error is, whatever its details: compared with `==`, as in `error.code == .noSuchAccount`.
///
/// Each error type has its own codes (`FailureCode<AccountError>`), declared as static members in an extension
/// constrained to that type, so a code is never compared with another type's. The set is open, like
/// `HTTPResponse.Status`: a new code never breaks a caller, who compares with the codes it knows and has no
/// exhaustive `switch` to update.
public struct FailureCode<Failure>: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, such as `noSuchAccount`.
    public let name: String

    /// The code named `name`; an error type declares its codes with it.
    public init(_ name: String) { self.name = name }

    /// The code's name.
    public var description: String { name }
}
