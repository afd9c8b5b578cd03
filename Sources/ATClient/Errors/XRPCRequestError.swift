public import Failures

/// An XRPC request that cannot be sent as asked; nothing was sent.
public struct XRPCRequestError: CategorizedError, Hashable {
    /// Why, in words.
    public let reason: String

    /// A header field the client sets itself was given (``ATClient/reservedHeaders``).
    public static func reservedHeader(_ name: String) -> XRPCRequestError {
        XRPCRequestError(reason: "the \(name) header is set by the client itself")
    }

    /// The caller asked for something that cannot be sent.
    public var category: FailureCategory { .usage }

    /// The caller's input: the request as asked.
    public var origin: FailureOrigin { .input }

    /// What was wrong with the request.
    public var description: String { "The request cannot be sent: \(reason)." }
}
