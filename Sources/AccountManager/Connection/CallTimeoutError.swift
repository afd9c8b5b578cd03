public import Failures
import WireFormat

/// A call that did not finish within the time its caller gave it (the `timeout` of
/// ``AccountConnection/send(_:timeout:logger:authorize:)``
/// and of `ATClient.execute`), a refresh and a retry included; what it was waiting for was abandoned.
///
/// Each exchange of the call also keeps the transport's own limits, whichever comes first: past those the error is
/// the transport's timeout instead.
public struct CallTimeoutError: CategorizedError, Hashable {
    /// The time the call was given.
    public let limit: Duration
    /// The call, such as `GET /xrpc/com.atproto.server.getSession as alice.test`; never a query, token or body.
    public let call: String

    /// Creates the error for `call`, which ran out of `limit`.
    public init(limit: Duration, call: String) {
        self.limit = limit
        self.call = TerminalText.sanitized(call)
    }

    /// No answer came in time: the network or the server failed.
    public var category: FailureCategory { .failed }

    /// The server, or the network to it, that did not answer in time.
    public var origin: FailureOrigin { .upstream }

    /// A slow server may need a longer limit.
    public var remedy: Remedy { .allowMoreTime }

    /// Says which call ran out of which limit.
    public var description: String {
        "Timed out after \(Self.format(limit)): \(call) did not finish within the time given for it"
            + " — the server is slow or unreachable; try again later."
    }

    /// A duration as people read it: `250 ms`, `2 s`, `1.5 s`.
    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return "0 ms" }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow, whole < Int64.max - 1000 else { return "\(seconds) s" }
        let milliseconds = whole + attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(milliseconds / 1000).\(milliseconds % 1000 / 100) s"
    }
}
