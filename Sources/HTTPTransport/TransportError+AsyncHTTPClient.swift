import AsyncHTTPClient
import NIOCore
import NIOHTTP1

extension TransportError {
    /// Translates what AsyncHTTPClient, SwiftNIO or the transport's own timer threw into a ``TransportError`` that
    /// names the request.
    ///
    /// Cancellation of the calling task wins over everything else, since the other errors it provokes are noise;
    /// seen here, it may have come after the request was sent.
    /// Anything not recognised as a timeout, a size cap, a bad URL or malformed HTTP counts as a connection failure
    /// (refused, name not found, TLS failure, reset), carrying the original text as ``underlying``.
    init(mapping error: any Error, for request: HTTPRequest, configuration: AsyncHTTPClientTransport.Configuration) {
        if Task.isCancelled {
            self = .cancelled(request)
        } else if let error = error as? TransportError {
            self = error
        } else if error is TotalTimeoutExpired {
            self = .timeout(request, after: configuration.totalTimeout, underlying: nil)
        } else if let error = error as? HTTPClientError {
            self = Self.mapping(error, for: request, configuration: configuration)
        } else if let error = error as? ChannelError, Self.isConnectTimeout(error) {
            self = .connectTimeout(request, after: configuration.connectTimeout, underlying: error)
        } else if error is HTTPParserError {
            self = .invalidResponse(request, underlying: error)
        } else if error is CancellationError {
            self = .cancelled(request)
        } else {
            self = .connectionFailed(request, underlying: error)
        }
    }

    private static func mapping(
        _ error: HTTPClientError,
        for request: HTTPRequest,
        configuration: AsyncHTTPClientTransport.Configuration
    ) -> TransportError {
        switch error {
        case .deadlineExceeded, .readTimeout, .writeTimeout:
            return .timeout(request, after: configuration.totalTimeout, underlying: error)
        case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
            return .connectTimeout(request, after: configuration.connectTimeout, underlying: error)
        case .cancelled:
            return .cancelled(request)
        case .invalidURL, .emptyHost, .emptyScheme:
            return .invalidURL(request)
        default:
            return .connectionFailed(request, underlying: error)
        }
    }

    private static func isConnectTimeout(_ error: ChannelError) -> Bool {
        if case .connectTimeout = error { return true }
        return false
    }
}
