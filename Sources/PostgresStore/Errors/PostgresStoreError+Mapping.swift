import Keystore
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import _ConnectionPoolModule

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension PostgresStoreError {
    /// Turns what PostgresNIO, SwiftNIO or the pool threw into a store error that says what to do.
    ///
    /// Keystore errors, store errors and cancellation pass through unchanged. The server's own message is quoted
    /// only for SQL states whose messages name no stored value.
    static func mapping(_ error: any Error, store: String, doing what: String) -> any Error {
        switch error {
        case is PostgresStoreError, is KeystoreError, is CancellationError:
            return error
        case let error as PSQLError:
            return mapping(error, store: store, doing: what)
        case let error as ConnectionPoolError where error == .requestCancelled:
            return CancellationError()
        case let error as ConnectionPoolError where error == .connectionCreationCircuitBreakerTripped:
            return unreachable(store, reason: "no connection could be opened for a minute")
        case let error as ConnectionPoolError where error == .poolShutdown:
            return connectionLost(store, doing: what)
        default:
            return connectionFailure(error, store: store, doing: what)
        }
    }

    private static func mapping(_ error: PSQLError, store: String, doing what: String) -> any Error {
        switch error.code {
        case .server:
            return serverFailure(error, store: store, doing: what)
        case .sslUnsupported:
            return tlsFailed(store, reason: "the server does not offer TLS, which the URL's sslmode requires")
        case .authMechanismRequiresPassword:
            return authenticationFailed(store, reason: "it asks for a password and none was given")
        case .unsupportedAuthMechanism, .saslError:
            return authenticationFailed(store, reason: "its authentication method failed or is not supported")
        case .queryCancelled:
            return CancellationError()
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
            return connectionLost(store, doing: what)
        case .connectionError:
            return error.underlying.map { connectionFailure($0, store: store, doing: what) }
                ?? connectionLost(store, doing: what)
        default:
            return serverError(store, message: "an unexpected answer (\(error.code))", sqlState: "none")
        }
    }

    private static func serverFailure(_ error: PSQLError, store: String, doing what: String) -> any Error {
        let sqlState = error.serverInfo?[.sqlState] ?? ""
        let message = error.serverInfo?[.message] ?? "no message"
        switch sqlState {
        case "28P01", "28000":
            return authenticationFailed(store, reason: message)
        case "3D000":
            return databaseMissing(store)
        case "42501":
            return permissionDenied(store, reason: message)
        case "57014":
            return timedOut(store, after: nil, doing: what)
        case "57P01", "57P02":
            // The server ended the session: it is shutting down, or an administrator terminated the backend.
            return connectionLost(store, doing: what)
        case "57P03", "53300":
            return unreachable(store, reason: message)
        case _ where sqlState.hasPrefix("08"):
            return connectionLost(store, doing: what)
        default:
            // Integrity and data errors quote row contents; only the SQL state and class are shown for them.
            let quotesData = sqlState.hasPrefix("22") || sqlState.hasPrefix("23")
            return serverError(store, message: quotesData ? "a data or integrity error" : message, sqlState: sqlState)
        }
    }

    private static func connectionFailure(_ error: any Error, store: String, doing what: String) -> any Error {
        switch error {
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first?.error {
                return connectionFailure(first, store: store, doing: what)
            }
            return unreachable(store, reason: "the host name does not resolve")
        case let error as IOError:
            return unreachable(store, reason: describe(errno: error.errnoCode))
        case let error as ChannelError:
            if case .connectTimeout = error { return unreachable(store, reason: "the connection timed out") }
            return connectionLost(store, doing: what)
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return tlsFailed(store, reason: "the certificate is for another host")
        case let error as NIOSSLError:
            if case .handshakeFailed(let inner) = error, "\(inner)".contains("CERTIFICATE_VERIFY_FAILED") {
                return tlsFailed(store, reason: "the server's certificate is not signed by a trusted authority")
            }
            return tlsFailed(store, reason: "\(error)")
        case let error as BoringSSLError:
            return tlsFailed(store, reason: "\(error)")
        default:
            return connectionLost(store, doing: what)
        }
    }

    private static func describe(errno code: Int32) -> String {
        switch code {
        case ECONNREFUSED: "connection refused (nothing listens there)"
        case ENOENT: "there is no server socket at that path"
        case EACCES, EPERM: "permission denied"
        case ETIMEDOUT: "the connection timed out"
        case EHOSTUNREACH, ENETUNREACH: "the host cannot be reached"
        case ECONNRESET: "the connection was reset"
        default: "network error \(code)"
        }
    }
}
