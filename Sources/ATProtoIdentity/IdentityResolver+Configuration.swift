public import Foundation

extension IdentityResolver {
    /// Where identities are resolved and how long results are kept (atproto.com/specs/handle; atproto.com/specs/oauth, Security Concerns).
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
