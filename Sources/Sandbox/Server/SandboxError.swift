public import Failures

/// Why the sandbox could not start.
public struct SandboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in words.
    public let reason: String

    /// A listener reported no usable address.
    public static let notListening = SandboxError(reason: "a listener did not report its address")

    /// A sentence for people.
    public var description: String { "The sandbox could not start: \(reason)." }
}

extension SandboxError: CategorizedError {
    /// The sandbox could not start or serve.
    public var category: FailureCategory { .failed }
}
