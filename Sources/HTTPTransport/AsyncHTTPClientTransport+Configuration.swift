import AsyncHTTPClient
import NIOCore

extension AsyncHTTPClientTransport {
    /// The limits of an ``AsyncHTTPClientTransport``; the defaults suit the small JSON exchanges of AT Protocol OAuth.
    public struct Configuration: Sendable {
        /// The `User-Agent` sent by default: `atoauth/` and the package version.
        public static let defaultUserAgent = "atoauth/0.1.0"

        /// How long setting up a connection may take; default 10 seconds.
        ///
        /// This covers the TCP connect and the TLS handshake; past it the request fails with
        /// ``TransportError/connectTimeout``.
        public var connectTimeout: Duration

        /// How long the whole exchange may take; default 30 seconds.
        ///
        /// The deadline runs from sending the request to reading the last byte of the body, connecting included;
        /// past it the request is aborted with ``TransportError/timeout``.
        public var totalTimeout: Duration

        /// The largest response body accepted, in bytes; default 1 MiB (1,048,576 bytes).
        ///
        /// A response whose `Content-Length` says more is refused before its body is read; a body that grows past
        /// the limit is aborted as soon as it does. Both fail with ``TransportError/responseTooLarge``.
        public var maximumResponseBytes: Int

        /// What the message of a response over ``maximumResponseBytes`` tells its reader to raise.
        ///
        /// Default `maximumResponseBytes`; a program that takes the limit as an option names that option, and one
        /// whose user cannot change it gives `nil`, so that the message names nothing to raise.
        public var maximumResponseBytesSetting: String? = "maximumResponseBytes"

        /// The `User-Agent` added to requests that carry none; default ``defaultUserAgent``, and `nil` adds none.
        public var userAgent: String?

        /// How many HTTP/1.1 connections to one host may be open at once; default 8.
        ///
        /// A request that finds them all busy waits for one, and fails with ``TransportError/connectTimeout`` when
        /// none is free within ``connectTimeout``. A proxy that has many calls in flight at once, some of them long
        /// (an upload, a slow reader), allows as many connections as calls it admits.
        public var maximumConnectionsPerHost: Int

        /// Creates a configuration; every parameter has the default documented on its property.
        public init(
            connectTimeout: Duration = .seconds(10),
            totalTimeout: Duration = .seconds(30),
            maximumResponseBytes: Int = 1 << 20,
            userAgent: String? = Configuration.defaultUserAgent,
            maximumConnectionsPerHost: Int = 8
        ) {
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.maximumResponseBytes = maximumResponseBytes
            self.userAgent = userAgent
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
        }

        /// The AsyncHTTPClient settings that implement these limits.
        var clientConfiguration: HTTPClient.Configuration {
            var configuration = HTTPClient.Configuration()
            // Never follow redirects: a 3xx comes back to the caller (AT Protocol OAuth forbids following them).
            configuration.redirectConfiguration = .disallow
            configuration.timeout = HTTPClient.Configuration.Timeout(
                connect: .nanoseconds(connectTimeout.clampedNanoseconds),
                // A streamed body has no total deadline: a connection that reads, or writes, nothing this long
                // fails instead.
                read: .nanoseconds(totalTimeout.clampedNanoseconds),
                write: .nanoseconds(totalTimeout.clampedNanoseconds)
            )
            // Fail at once when a connection is refused instead of retrying with backoff until the connect timeout:
            // a CLI should say "connection refused" now, not in 10 seconds.
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, maximumConnectionsPerHost)
            // Bodies are read as sent, so the size cap applies to the bytes on the wire.
            configuration.decompression = .disabled
            return configuration
        }
    }
}
