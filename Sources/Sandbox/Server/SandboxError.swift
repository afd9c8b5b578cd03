public import Failures

/// Why the sandbox could not start.
public struct SandboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in words.
    public let reason: String
    /// The port asked for, when another program holds it.
    public let portInUse: Int?

    init(reason: String, portInUse: Int? = nil) {
        self.reason = reason
        self.portInUse = portInUse
    }

    /// A listener reported no usable address.
    public static let notListening = SandboxError(reason: "a listener did not report its address")

    /// Another program holds `port` on 127.0.0.1.
    public static func portInUse(_ port: Int) -> SandboxError {
        SandboxError(reason: "port \(port) on 127.0.0.1 is already in use by another program", portInUse: port)
    }

    /// A sentence for people.
    public var description: String { "The sandbox could not start: \(reason)." }
}

extension SandboxError: CategorizedError {
    /// The sandbox could not start or serve.
    public var category: FailureCategory { .failed }

    /// This machine: its ports and listeners.
    public var origin: FailureOrigin { .machine }

    /// For a taken port: another one, or none so that a free one is picked.
    public var remedy: Remedy { portInUse.map { .chooseAnotherPort($0) } ?? .none }
}
