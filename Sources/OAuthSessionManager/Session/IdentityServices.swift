public import ATProtoIdentity
public import Foundation

/// Where an account's identity was resolved at sign-in, when that was not the public network's default.
///
/// That is a PLC directory other than plc.directory, or a handle resolution service
/// (`com.atproto.identity.resolveHandle`) instead of DNS and HTTPS (atproto.com/specs/handle, Handle Resolution).
/// Kept with the session, not secret, so that its refreshes re-resolve the DID where it lives: a sandbox, a private
/// network, a test PLC.
public struct IdentityServices: Sendable, Hashable {
    /// The PLC directory, when not `DIDResolver.defaultPLCDirectory` (ATProtoIdentity).
    public var plcDirectory: URL?
    /// The handle resolution service, when one was used.
    public var handleResolver: URL?

    /// The services of `configuration` that are not the defaults; `nil` when it has none.
    public init?(_ configuration: IdentityResolver.Configuration) {
        let directory = configuration.plcDirectory == DIDResolver.defaultPLCDirectory ? nil : configuration.plcDirectory
        guard directory != nil || configuration.handleResolverService != nil else { return nil }
        self.plcDirectory = directory
        self.handleResolver = configuration.handleResolverService
    }

    /// `configuration` with these services in place of its defaults (its cache lifetime kept).
    func applied(to configuration: IdentityResolver.Configuration) -> IdentityResolver.Configuration {
        var applied = configuration
        if let plcDirectory { applied.plcDirectory = plcDirectory }
        if let handleResolver { applied.handleResolverService = handleResolver }
        return applied
    }
}

extension IdentityServices {
    /// The stored members, `nil` when neither is there.
    init?(plcDirectory: URL?, handleResolver: URL?) {
        guard plcDirectory != nil || handleResolver != nil else { return nil }
        self.plcDirectory = plcDirectory
        self.handleResolver = handleResolver
    }
}
