public import Failures

/// Why the loopback listener could not receive the sign-in's redirect: its port is taken, it could not bind, or no
/// redirect came in time.
public struct LoopbackListenerError: CategorizedError, Hashable {
    /// Which failure a ``LoopbackListenerError`` is, whatever its details: compared with `==`, as in
    /// `error.code == .portInUse`.
    ///
    /// New codes may come in a later version: a `switch` over them needs a `default` case.
    @nonexhaustive
    public enum Code: String, NamedFailureCode {
        /// Another program holds the port asked for on 127.0.0.1.
        case portInUse
        /// The listener's socket has no local address after binding.
        case notBound
        /// No redirect arrived in time.
        case timedOut
        /// The wait ended after redirects with a `state` of no sign-in under way were refused, and none for this
        /// sign-in came (RFC 6749 §10.12).
        case refusedRedirects
    }

    /// Which failure this is, whatever its details: `error.code == .portInUse`.
    public let code: Code
    /// The port asked for, when the error is about one.
    public let port: Int?
    /// How long the wait lasted, when it timed out.
    public let seconds: Int?
    /// How many redirects were refused because their `state` belongs to no sign-in under way.
    public let refused: Int?

    /// Another program holds the port asked for on 127.0.0.1.
    public static func portInUse(_ port: Int) -> LoopbackListenerError {
        LoopbackListenerError(code: .portInUse, port: port, seconds: nil, refused: nil)
    }

    /// The listener's socket has no local address after binding.
    public static let notBound = LoopbackListenerError(code: .notBound, port: nil, seconds: nil, refused: nil)

    /// No redirect arrived within `seconds`.
    public static func timedOut(_ seconds: Int) -> LoopbackListenerError {
        LoopbackListenerError(code: .timedOut, port: nil, seconds: seconds, refused: nil)
    }

    /// The wait of `seconds` ended after `count` redirects with a `state` of no sign-in under way were refused, and
    /// none for this sign-in came (RFC 6749 §10.12).
    public static func refusedRedirects(_ count: Int, seconds: Int) -> LoopbackListenerError {
        LoopbackListenerError(code: .refusedRedirects, port: nil, seconds: seconds, refused: count)
    }

    /// Whether both errors are the same failure, ignoring the details.
    @available(*, deprecated, message: "Compare codes instead: error.code == .name")
    public func hasSameCode(as other: LoopbackListenerError) -> Bool { code == other.code }

    /// A refused redirect fails a security check; otherwise the listener could not do its part.
    ///
    /// Nothing was stored either way.
    public var category: FailureCategory { code == .refusedRedirects ? .securityCheckFailed : .failed }

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
        case .refusedRedirects:
            "Sign-in did not complete: \(refused == 1 ? "a redirect" : "\(refused ?? 0) redirects") came back with a state "
                + "that belongs to no sign-in under way and \(refused == 1 ? "was" : "were") refused, and none for this "
                + "sign-in arrived within \(seconds ?? 0) second\(seconds == 1 ? "" : "s"). The redirect may come from "
                + "another sign-in or be forged; nothing was stored. Start the sign-in again."
        case .timedOut:
            "Sign-in timed out: no redirect arrived within \(seconds ?? 0) second\(seconds == 1 ? "" : "s"). Start it "
                + "again and approve in the browser."
        }
    }
}

extension LoopbackListenerError {
    /// Where the failure lies: the port or socket is this machine's; a redirect that did not come (in time) or
    /// was refused is the sign-in's input.
    public var origin: FailureOrigin {
        switch code {
        case .portInUse, .notBound: .machine
        case .timedOut, .refusedRedirects: .input
        }
    }
}
