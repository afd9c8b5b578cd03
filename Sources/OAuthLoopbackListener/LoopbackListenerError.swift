public import Failures

/// Why the loopback listener could not receive the sign-in's redirect: its port is taken, it could not bind, or no
/// redirect came in time.
public struct LoopbackListenerError: CategorizedError, Hashable {
    enum Code: Hashable, Sendable {
        case portInUse
        case notBound
        case timedOut
    }

    let code: Code
    /// The port asked for, when the error is about one.
    public let port: Int?
    /// How long the wait lasted, when it timed out.
    public let seconds: Int?

    /// Another program holds the port asked for on 127.0.0.1.
    public static func portInUse(_ port: Int) -> LoopbackListenerError {
        LoopbackListenerError(code: .portInUse, port: port, seconds: nil)
    }

    /// The listener's socket has no local address after binding.
    public static let notBound = LoopbackListenerError(code: .notBound, port: nil, seconds: nil)

    /// No redirect arrived within `seconds`.
    public static func timedOut(_ seconds: Int) -> LoopbackListenerError {
        LoopbackListenerError(code: .timedOut, port: nil, seconds: seconds)
    }

    /// Whether both errors are the same failure, ignoring the details.
    public func hasSameCode(as other: LoopbackListenerError) -> Bool { code == other.code }

    /// The listener could not do its part; nothing was stored.
    public var category: FailureCategory { .failed }

    /// For a taken port: another one, or none so that a free one is picked.
    public var remedy: Remedy {
        guard code == .portInUse, let port else { return .none }
        return .chooseAnotherPort(port)
    }

    /// What happened, in words.
    public var description: String {
        switch code {
        case .portInUse:
            "Port \(port ?? 0) on 127.0.0.1 is already in use by another program, so the sign-in's redirect cannot "
                + "be received there."
        case .notBound: "The loopback listener could not bind to 127.0.0.1."
        case .timedOut:
            "Sign-in timed out: no redirect arrived within \(seconds ?? 0) second\(seconds == 1 ? "" : "s"). Start it "
                + "again and approve in the browser."
        }
    }
}
