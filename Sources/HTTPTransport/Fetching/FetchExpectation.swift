/// What a fetched answer must satisfy besides the address checks: its status and whether it must be JSON.
public struct FetchExpectation: Sendable, Hashable {
    /// Which statuses are accepted.
    public enum Status: Sendable, Hashable {
        /// Exactly this status, such as 200 for metadata (RFC 9728 §3; atproto.com/specs/oauth, Authorization Servers).
        case exactly(Int)
        /// Any status from 200 to 299, as for `/.well-known/atproto-did` (atproto.com/specs/handle, Handle Resolution).
        case successful

        /// Whether the status is accepted.
        public func accepts(_ status: Int) -> Bool {
            switch self {
            case .exactly(let expected): status == expected
            case .successful: (200..<300).contains(status)
            }
        }

        /// The accepted statuses in words, for error messages.
        var expectation: String {
            switch self {
            case .exactly(let expected): "exactly \(expected)"
            case .successful: "2xx"
            }
        }
    }

    /// The statuses accepted.
    public var status: Status
    /// Whether the answer's `Content-Type` must be `application/json` or `application/*+json`.
    public var requiresJSON: Bool
    /// The `Accept` header sent.
    public var accept: String

    /// Creates an expectation.
    public init(status: Status, requiresJSON: Bool, accept: String) {
        self.status = status
        self.requiresJSON = requiresJSON
        self.accept = accept
    }

    /// Metadata: exactly 200 and JSON (RFC 9728 §3; atproto.com/specs/oauth, Authorization Servers).
    public static let metadata = FetchExpectation(status: .exactly(200), requiresJSON: true, accept: "application/json")

    /// A DID document or an XRPC answer: exactly 200; the body is checked by decoding it.
    public static let document = FetchExpectation(
        status: .exactly(200),
        requiresJSON: false,
        accept: "application/did+ld+json, application/json"
    )

    /// An XRPC query such as `com.atproto.identity.resolveHandle`: exactly 200 and JSON.
    public static let xrpc = FetchExpectation(status: .exactly(200), requiresJSON: true, accept: "application/json")

    /// `/.well-known/atproto-did`: any 2xx, plain text (atproto.com/specs/handle, Handle Resolution).
    public static let text = FetchExpectation(status: .successful, requiresJSON: false, accept: "text/plain")
}
