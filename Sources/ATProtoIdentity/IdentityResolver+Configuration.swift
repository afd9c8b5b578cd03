import ATProtoSyntax
public import Foundation
import HTTPTransport

extension IdentityResolver {
    /// Where identities are resolved and how long results are kept (ATPROTO-OAUTH §1.2–§1.3, §1.6).
    public struct Configuration: Sendable, Hashable {
        /// Where `did:plc` documents are fetched; by default ``DIDResolver/defaultPLCDirectory``.
        public var plcDirectory: URL
        /// A `com.atproto.identity.resolveHandle` service used instead of DNS + HTTPS; default `nil`.
        public var handleResolverService: URL?
        /// Seconds a resolution is cached; default 300, capped at ``IdentityResolver/maximumCacheTimeToLive``.
        public var cacheTimeToLive: TimeInterval

        /// Creates a configuration.
        public init(
            plcDirectory: URL = DIDResolver.defaultPLCDirectory,
            handleResolverService: URL? = nil,
            cacheTimeToLive: TimeInterval = 300
        ) {
            self.plcDirectory = plcDirectory
            self.handleResolverService = handleResolverService
            self.cacheTimeToLive = cacheTimeToLive
        }
    }
}
