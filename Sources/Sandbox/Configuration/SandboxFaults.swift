public import Foundation

/// Faults the sandbox injects on purpose, so clients can be tested against a misbehaving server.
public struct SandboxFaults: Sendable, Hashable {
    /// How many times a fault still fires.
    public enum Repetition: Sendable, Hashable {
        /// The fault is off.
        case off
        /// The fault fires for the next `count` matching requests, then turns itself off.
        case times(Int)
        /// The fault fires until it is turned off.
        case always
    }

    /// Whether the token endpoint answers `500 server_error` to `refresh_token` grants, before looking at the
    /// request, so the refresh token stays valid (a transient failure the client must survive).
    public var refreshServerError: Repetition
    /// A delay before every answer of every origin, or `nil` for none.
    public var slowResponses: TimeInterval?
    /// Whether each DPoP endpoint rotates its nonce on every response, so a nonce from two responses ago is stale.
    public var newNonceOnEveryResponse: Bool

    /// Creates a fault set; by default nothing misbehaves.
    public init(
        refreshServerError: Repetition = .off,
        slowResponses: TimeInterval? = nil,
        newNonceOnEveryResponse: Bool = false
    ) {
        self.refreshServerError = refreshServerError
        self.slowResponses = slowResponses
        self.newNonceOnEveryResponse = newNonceOnEveryResponse
    }

    /// No faults.
    public static let none = SandboxFaults()
}

extension SandboxFaults.Repetition {
    /// Uses one firing: whether the fault fires now; `.times` counts down to `.off`.
    mutating func fire() -> Bool {
        switch self {
        case .off:
            return false
        case .always:
            return true
        case .times(let count):
            guard count > 0 else {
                self = .off
                return false
            }
            self = count > 1 ? .times(count - 1) : .off
            return true
        }
    }
}
