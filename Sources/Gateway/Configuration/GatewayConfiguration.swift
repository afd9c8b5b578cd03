public import ATProtoSyntax
public import Foundation

/// How a ``GatewayServer`` listens, whom it lets in, and how much it takes on at once.
///
/// The defaults suit one person's scripts on one machine; ``validate()`` says what cannot be used, before anything
/// listens.
public struct GatewayConfiguration: Sendable {
    /// Where the gateway listens: a loopback address or a Unix domain socket, never a network others can reach.
    public var listen: Listen
    /// The token every request but the health check must carry as `Authorization: Bearer <token>` (RFC 6750 §2.1):
    /// at least 16 visible ASCII characters.
    public var token: String
    /// The account a request goes out as when neither its `atoauth-account` header nor its `repo` names one; `nil`
    /// for the active account at the time of the request.
    public var fallbackAccount: ATIdentifier?
    /// The largest request body, in bytes, 100 MiB by default; a larger one is refused with 413.
    public var maximumBodyBytes: Int
    /// The most `/xrpc/` requests in flight at once, 1,000 by default; one more is refused with 503 and `Retry-After`.
    ///
    /// The accounts' transport should allow as many connections to one host (for `AsyncHTTPClientTransport`, its
    /// `maximumConnectionsPerHost`): a call that waits for a connection behind long uploads fails after the connect
    /// timeout.
    public var maximumConcurrentRequests: Int
    /// How long a client may send nothing while its request is read, before its connection is closed (slow or
    /// stalled clients); default 30 seconds.
    public var idleTimeout: Duration
    /// How long a graceful shutdown waits for the requests in flight before cancelling them; default 10 seconds.
    public var shutdownGrace: Duration
    /// Whether `atoauth_gateway_requests_total` carries an `account` label with the DID; off by default, so that no
    /// DID reaches a metrics system unless asked.
    public var metricsPerAccount: Bool
    /// Where bodies larger than ``memoryBodyLimit`` are spooled while a request is forwarded (and sent again on a
    /// retry): made 0700, each file 0600 and unlinked as soon as it is opened.
    public var spoolDirectory: URL

    // Connections (issue #34 item 5): what one without a token can hold open, and for how long.
    /// The most connections open at once; one more is closed as soon as it is accepted.
    ///
    /// `nil` (the default) for ``maximumConcurrentRequests`` + 64, so that callers of a health check, or of a call
    /// refused as overloaded, still get in.
    public var maximumConnections: Int?
    /// How long a request's head, and a body received whole before it is forwarded, may take to arrive; 10 seconds.
    ///
    /// A head's time runs from its first byte, a body's from the end of the head. When it runs out, the connection
    /// is closed (for a body, after a 408 answer).
    public var requestDeadline = GatewayConfiguration.defaultRequestDeadline
    /// 10 seconds.
    public static let defaultRequestDeadline = Duration.seconds(10)
    /// The connections allowed beyond ``maximumConcurrentRequests`` when ``maximumConnections`` is not set.
    public static let connectionsBeyondRequests = 64
    /// ``maximumConnections``, or its default.
    public var connectionLimit: Int {
        let beyond = maximumConcurrentRequests.addingReportingOverflow(Self.connectionsBeyondRequests)
        return maximumConnections ?? beyond.partialValue
    }

    // Named tokens, account limits and the audit trail (issue #34 items 1–3).
    /// The accounts every token of this gateway may act as, the start-up token's included (`--allow-account`);
    /// `nil` for every account the store holds.
    public var allowedAccounts: Set<DID>? = nil
    /// Whether named tokens from the account store (`atoauth gateway token create`) are honoured besides the
    /// start-up token; on by default.
    public var acceptsNamedTokens = true
    /// Where to append one JSON line per answered request; `nil` for no audit trail.
    public var auditLog: URL? = nil
    /// Whether the requests counter carries a `token` label with the token's name; off by default.
    public var metricsPerToken = false

    /// 100 MiB.
    public static let defaultMaximumBodyBytes = 100 << 20
    /// 1,000 requests.
    public static let defaultMaximumConcurrentRequests = 1_000
    /// 30 seconds.
    public static let defaultIdleTimeout = Duration.seconds(30)
    /// 10 seconds.
    public static let defaultShutdownGrace = Duration.seconds(10)
    /// Bodies up to 1 MiB are held in memory; larger ones are spooled to ``spoolDirectory``.
    public static let memoryBodyLimit = 1 << 20

    /// Creates a configuration; every limit has the default documented on its property.
    public init(
        listen: Listen,
        token: String,
        spoolDirectory: URL,
        fallbackAccount: ATIdentifier? = nil,
        maximumBodyBytes: Int = GatewayConfiguration.defaultMaximumBodyBytes,
        maximumConcurrentRequests: Int = GatewayConfiguration.defaultMaximumConcurrentRequests,
        idleTimeout: Duration = GatewayConfiguration.defaultIdleTimeout,
        shutdownGrace: Duration = GatewayConfiguration.defaultShutdownGrace,
        metricsPerAccount: Bool = false
    ) {
        self.listen = listen
        self.token = token
        self.spoolDirectory = spoolDirectory
        self.fallbackAccount = fallbackAccount
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumConcurrentRequests = maximumConcurrentRequests
        self.idleTimeout = idleTimeout
        self.shutdownGrace = shutdownGrace
        self.metricsPerAccount = metricsPerAccount
    }

    /// The shortest token accepted.
    public static let minimumTokenLength = 16

    /// Checks every setting.
    ///
    /// - Throws: ``GatewayError`` (usage) naming the first setting that cannot be used: an address that is not
    ///   loopback, a socket path too long for the system, a token too short or with characters a header cannot
    ///   carry, or a limit out of range.
    public func validate() throws {
        try listen.check()
        guard token.utf8.count >= Self.minimumTokenLength else {
            throw GatewayError.unusableToken("it is shorter than \(Self.minimumTokenLength) characters")
        }
        guard token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw GatewayError.unusableToken("it holds a character other than visible ASCII")
        }
        guard maximumBodyBytes >= 1 else {
            throw GatewayError.invalidLimit("the largest body must be at least 1 byte")
        }
        guard maximumConcurrentRequests >= 1 else {
            throw GatewayError.invalidLimit("at least 1 request must be allowed in flight")
        }
        guard connectionLimit >= 1 else { throw GatewayError.invalidLimit("at least 1 connection must be allowed") }
        guard requestDeadline > .zero else {
            throw GatewayError.invalidLimit("the deadline of a request's head and body must be positive")
        }
        guard idleTimeout > .zero else { throw GatewayError.invalidLimit("the idle timeout must be positive") }
        guard shutdownGrace >= .zero else {
            throw GatewayError.invalidLimit("the shutdown grace must not be negative")
        }
    }
}
