public import Failures
import WireFormat

/// A gateway that cannot start: a setting that cannot be used, an address already taken, or a file or directory it
/// cannot make.
///
/// Nothing in it is secret: the token never appears.
public struct GatewayError: CategorizedError, Hashable {
    /// Which failure a ``GatewayError`` is, whatever its details: compared with `==`, as in
    /// `error.code == .notLoopback`.
    ///
    /// New codes may come in a later version: a `switch` over them needs a `default` case.
    @nonexhaustive
    public enum Code: String, NamedFailureCode {
        /// A host that is not a loopback address: the gateway would be reachable from other machines.
        case notLoopback
        /// A port outside 0–65535.
        case invalidPort
        /// A Unix socket path that cannot be bound.
        case unusableSocketPath
        /// A token that a header cannot carry, or too short to guess at.
        case unusableToken
        /// A limit out of range.
        case invalidLimit
        /// Another program listens on the address.
        case addressInUse
        /// The address cannot be bound for another reason, such as a port below 1024 or a missing directory.
        case cannotListen
        /// The spool directory cannot be made or used.
        case spoolDirectory
        /// The token file cannot be written.
        case tokenFile
        /// Another gateway, running, holds the token file: starting would replace the token its clients use.
        case tokenFileInUse
        /// The audit log cannot be opened for appending.
        case auditLog
    }

    /// Which failure this is, whatever its details: `error.code == .notLoopback`.
    public let code: Code
    /// What went wrong, in words, safe to print.
    public let reason: String
    /// The port that is taken, for ``addressInUse(_:port:)``.
    let port: Int?

    init(_ code: Code, _ reason: String, port: Int? = nil) {
        self.code = code
        self.reason = TerminalText.sanitized(reason)
        self.port = port
    }

    /// Whether both errors are the same failure, ignoring the details.
    @available(*, deprecated, message: "Compare codes instead: error.code == .name")
    public func hasSameCode(as other: GatewayError) -> Bool { code == other.code }

    /// A host that is not a loopback address: the gateway would be reachable from other machines.
    public static func notLoopback(_ host: String) -> GatewayError {
        GatewayError(
            .notLoopback,
            "The gateway listens on loopback only (127.0.0.0/8, ::1 or localhost), not on “\(host)”: any other "
                + "address lets other machines reach the signed-in accounts."
        )
    }

    /// A port outside 0–65535.
    public static func invalidPort(_ port: Int) -> GatewayError {
        GatewayError(.invalidPort, "The port must be from 0 (any free port) to 65535, not \(port).")
    }

    /// A Unix socket path that cannot be bound.
    public static func unusableSocketPath(_ path: String, _ reason: String) -> GatewayError {
        GatewayError(.unusableSocketPath, "The socket path “\(path)” cannot be used: \(reason).")
    }

    /// A token that a header cannot carry, or too short to guess at.
    public static func unusableToken(_ reason: String) -> GatewayError {
        GatewayError(.unusableToken, "The gateway token cannot be used: \(reason).")
    }

    /// A limit out of range.
    public static func invalidLimit(_ reason: String) -> GatewayError {
        GatewayError(.invalidLimit, "A gateway limit cannot be used: \(reason).")
    }

    /// Another program listens on the address.
    public static func addressInUse(_ address: String, port: Int?) -> GatewayError {
        GatewayError(.addressInUse, "Something else already listens on \(address).", port: port)
    }

    /// The address cannot be bound for another reason, such as a port below 1024 or a missing directory.
    public static func cannotListen(_ address: String, _ reason: String) -> GatewayError {
        GatewayError(.cannotListen, "The gateway cannot listen on \(address): \(reason).")
    }

    /// The spool directory cannot be made or used.
    public static func spoolDirectory(_ path: String, _ reason: String) -> GatewayError {
        GatewayError(.spoolDirectory, "The gateway's spool directory \(path) cannot be used: \(reason).")
    }

    /// The token file cannot be written.
    public static func tokenFile(_ path: String, _ reason: String) -> GatewayError {
        GatewayError(.tokenFile, "The gateway token cannot be written to \(path): \(reason). Nothing was kept.")
    }

    /// Another gateway, running, holds the token file: starting would replace the token its clients use.
    public static func tokenFileInUse(_ path: String, holder: String) -> GatewayError {
        GatewayError(
            .tokenFileInUse,
            "Another gateway (\(holder)) holds the token file \(path); its token is left as it is. Stop that gateway, "
                + "or give this one another --token-file."
        )
    }

    /// The audit log cannot be opened for appending.
    public static func auditLog(_ path: String, _ reason: String) -> GatewayError {
        GatewayError(.auditLog, "The gateway's audit log \(path) cannot be opened: \(reason).")
    }

    /// `usage` for a setting that cannot be used; `failed` when the system refuses (an address taken, a file).
    public var category: FailureCategory {
        switch code {
        case .notLoopback, .invalidPort, .unusableSocketPath, .unusableToken, .invalidLimit: .usage
        case .addressInUse, .cannotListen, .spoolDirectory, .tokenFile, .tokenFileInUse, .auditLog: .failed
        }
    }

    /// Another port, when the one asked for is taken.
    public var remedy: Remedy {
        guard code == .addressInUse, let port, port != 0 else { return .none }
        return .chooseAnotherPort(port)
    }

    /// The reason.
    public var description: String { reason }
}

extension GatewayError {
    /// Where the failure lies: the caller's input for a setting that cannot be used; this machine for an
    /// address taken or a file or directory.
    public var origin: FailureOrigin {
        switch code {
        case .notLoopback, .invalidPort, .unusableSocketPath, .unusableToken, .invalidLimit: .input
        case .addressInUse, .cannotListen, .spoolDirectory, .tokenFile, .tokenFileInUse, .auditLog: .machine
        }
    }
}
