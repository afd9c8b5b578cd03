public import ATProtoSyntax
public import Foundation
public import HTTPTransport

/// Turns what the user typed — a handle, a DID or a PDS/entryway URL — into a checked ``ResolvedIdentity``
/// (atproto.com/specs/oauth, Identity Authentication).
///
/// From a handle: resolve it to a DID, fetch the DID document, check its `id`, require that the document's handle
/// is the one typed, and take its PDS. From a DID: fetch the document, and when it names a handle, require that the
/// handle resolves back to the DID. From a URL: only normalize the origin. Results are cached for less than
/// 10 minutes; ``CachePolicy/reload`` bypasses the cache, as the sign-in flow must when it re-resolves `sub`
/// after the token response (atproto.com/specs/oauth, Authorization Flow).
public struct IdentityResolver: Sendable {
    /// Whether a resolution may use cached results.
    public enum CachePolicy: Sendable, Hashable {
        /// Use results younger than the time to live, and store fresh ones.
        case useCache
        /// Resolve everything afresh, and store the fresh results.
        case reload
    }

    /// The longest time to live accepted, in seconds: just under 10 minutes (atproto.com/specs/oauth, Security Concerns).
    public static let maximumCacheTimeToLive: TimeInterval = 599

    private let handleResolver: any HandleResolver
    private let didResolver: DIDResolver
    private let allowHTTPLoopback: Bool
    private let handles: ExpiringCache<Handle, DID>
    private let documents: ExpiringCache<DID, DIDDocument>

    /// Creates a resolver from its parts; `cacheTimeToLive` is capped at ``maximumCacheTimeToLive``.
    public init(
        handleResolver: any HandleResolver,
        didResolver: DIDResolver,
        allowHTTPLoopback: Bool = false,
        cacheTimeToLive: TimeInterval = 300,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        let timeToLive = min(max(cacheTimeToLive, 0), Self.maximumCacheTimeToLive)
        self.handleResolver = handleResolver
        self.didResolver = didResolver
        self.allowHTTPLoopback = allowHTTPLoopback
        self.handles = ExpiringCache(timeToLive: timeToLive, now: now)
        self.documents = ExpiringCache(timeToLive: timeToLive, now: now)
    }

    /// Creates a resolver that fetches through `fetcher`: DNS + HTTPS handle resolution, or the configured
    /// `resolveHandle` service, and the configured PLC directory.
    public init(
        fetcher: SafeFetcher,
        configuration: Configuration = Configuration(),
        dns: any DNSTXTResolver = SystemDNSResolver(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        let handleResolver: any HandleResolver =
            if let service = configuration.handleResolverService {
                XRPCHandleResolver(service: service, fetcher: fetcher)
            } else {
                DNSAndHTTPSHandleResolver(dns: dns, fetcher: fetcher)
            }
        self.init(
            handleResolver: handleResolver,
            didResolver: DIDResolver(fetcher: fetcher, plcDirectory: configuration.plcDirectory),
            allowHTTPLoopback: fetcher.configuration.allowHTTPLoopback,
            cacheTimeToLive: configuration.cacheTimeToLive,
            now: now
        )
    }

    /// Resolves what the user typed: a server URL, a DID, or a handle with an optional leading `@`.
    ///
    /// A URL must be `https://` (or `http://` loopback in development mode). Throws ``IdentityError`` with the code
    /// ``IdentityError/Code/invalidInput`` for input that is none of these, and the resolution's errors otherwise.
    public func resolve(_ input: String, cachePolicy: CachePolicy = .useCache) async throws -> ResolvedIdentity {
        let text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        let lowered = text.lowercased()
        if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
            return try server(text)
        }
        if text.contains("://") {
            throw IdentityError.invalidInput("“\(text)” is not an https:// URL")
        }
        let identifier = try ATIdentifier(typed: text)
        return try await resolve(identifier, cachePolicy: cachePolicy)
    }

    /// Resolves a handle or a DID.
    public func resolve(
        _ identifier: ATIdentifier,
        cachePolicy: CachePolicy = .useCache
    ) async throws
        -> ResolvedIdentity
    {
        switch identifier {
        case .handle(let handle): try await resolve(handle: handle, cachePolicy: cachePolicy)
        case .did(let did): try await resolve(did: did, cachePolicy: cachePolicy)
        }
    }

    /// Resolves a handle to its DID and document, and requires the document's handle to be this handle.
    public func resolve(handle: Handle, cachePolicy: CachePolicy = .useCache) async throws -> ResolvedIdentity {
        try handle.checkResolvable()
        let did = try await self.did(for: handle, cachePolicy: cachePolicy)
        let document = try await self.document(for: did, cachePolicy: cachePolicy)
        guard document.handle == handle else {
            let named = document.handle.map { "names the handle \($0)" } ?? "names no handle"
            throw IdentityError.handleNotConfirmed("\(handle) resolves to \(did), but that DID's document \(named)")
        }
        let pds = try document.personalDataServer(allowHTTPLoopback: allowHTTPLoopback)
        return ResolvedIdentity(did: did, handle: handle, pds: pds, document: document)
    }

    /// Resolves a DID to its document and checks that the document's handle, if any, resolves back to the DID.
    ///
    /// A document without a handle gives an identity without one.
    public func resolve(did: DID, cachePolicy: CachePolicy = .useCache) async throws -> ResolvedIdentity {
        _ = try did.resolutionTarget()
        let document = try await self.document(for: did, cachePolicy: cachePolicy)
        let handle = document.handle
        if let handle {
            guard handle.isResolvable else {
                throw IdentityError.handleNotConfirmed("\(did)'s document names \(handle), which cannot be resolved")
            }
            let resolved = try await self.did(for: handle, cachePolicy: cachePolicy)
            guard resolved == did else {
                throw IdentityError.handleNotConfirmed(
                    "\(did)'s document names the handle \(handle), but \(handle) resolves to \(resolved)"
                )
            }
        }
        let pds = try document.personalDataServer(allowHTTPLoopback: allowHTTPLoopback)
        return ResolvedIdentity(did: did, handle: handle, pds: pds, document: document)
    }

    private func server(_ text: String) throws -> ResolvedIdentity {
        guard let url = URL(string: text) else { throw IdentityError.invalidInput("“\(text)” is not a valid URL") }
        do {
            let origin = try OriginURL.normalize(url, allowHTTPLoopback: allowHTTPLoopback)
            return ResolvedIdentity(did: nil, handle: nil, pds: origin, document: nil)
        } catch {
            throw IdentityError.invalidInput("not a usable server URL: \(error.reason)")
        }
    }

    private func did(for handle: Handle, cachePolicy: CachePolicy) async throws -> DID {
        if cachePolicy == .useCache, let cached = await handles.value(for: handle) { return cached }
        let did = try await handleResolver.resolve(handle)
        await handles.store(did, for: handle)
        return did
    }

    private func document(for did: DID, cachePolicy: CachePolicy) async throws -> DIDDocument {
        if cachePolicy == .useCache, let cached = await documents.value(for: did) { return cached }
        let document = try await didResolver.resolve(did)
        await documents.store(document, for: did)
        return document
    }
}
