public import Foundation
import WireFormat

/// Fetches identity and metadata documents over any ``HTTPTransport`` with the checks atproto.com/specs/oauth, Security Concerns asks for.
///
/// Before each request the URL passes ``DestinationPolicy``: `https` only (development mode: also `http` to
/// loopback hosts), and a host that is, or resolves to, only public addresses. The answer must then not be a
/// redirect (a 3xx is an error naming its `Location`), must have the required status and, where required, JSON
/// content, and must fit the size cap, checked here on top of the transport's own cap.
///
/// The host is resolved here and every address checked; with an ``AddressPinningTransport`` (such as
/// `AsyncHTTPClientTransport`) the request then connects to exactly the checked address, so a DNS answer that
/// changes in between (DNS rebinding) cannot redirect it. ``pinnedTransport(for:)`` gives other requests (the
/// token endpoint, app-password sessions) the same ``PinnedTransport``.
///
/// - Important: Over a transport that cannot pin, the transport resolves the host again to connect, and a
///   rebinding name could still reach an address that was not checked.
public struct SafeFetcher: Sendable {
    /// How strict the fetcher is.
    public struct Configuration: Sendable, Hashable {
        /// Whether `http://` and loopback addresses are allowed for loopback hosts (development only; default off).
        public var allowHTTPLoopback: Bool
        /// The largest body accepted, in bytes; 512 KiB by default, as documents and metadata are a few KiB.
        public var maximumResponseSize: Int

        /// Creates a configuration.
        public init(allowHTTPLoopback: Bool = false, maximumResponseSize: Int = 512 * 1024) {
            self.allowHTTPLoopback = allowHTTPLoopback
            self.maximumResponseSize = maximumResponseSize
        }
    }

    /// The settings in force.
    public let configuration: Configuration
    private let transport: any HTTPTransport
    private let addressResolver: any AddressResolver

    /// Creates a fetcher over `transport`, resolving hosts with `addressResolver` before each request.
    public init(
        transport: any HTTPTransport,
        configuration: Configuration = Configuration(),
        addressResolver: any AddressResolver = SystemAddressResolver()
    ) {
        self.transport = transport
        self.configuration = configuration
        self.addressResolver = addressResolver
    }

    /// The destination rules in force.
    public var policy: DestinationPolicy { DestinationPolicy(allowHTTPLoopback: configuration.allowHTTPLoopback) }

    /// Checks that `url` may be contacted: its scheme, its host, and every address the host resolves to.
    ///
    /// A request sent afterwards through a plain transport resolves the host again; ``pinnedTransport(for:)`` runs
    /// the same checks and then connects to the checked address.
    /// Throws ``FetchError/unsafeDestination(_:)`` or ``FetchError/networkFailure(_:)``.
    public func checkDestination(_ url: URL) async throws {
        _ = try await checkedAddresses(url)
    }

    /// Checks `url` like ``checkDestination(_:)`` and returns a transport that connects every request for its host
    /// to the first checked address, as ``get(_:expecting:)`` does.
    ///
    /// For requests other than fetches, such as the token endpoint's: the request and any retry of it (a DPoP nonce
    /// retry) then go where the check looked, and a DNS answer that changes in between cannot redirect them. Throws
    /// as ``checkDestination(_:)`` does, before anything is sent.
    public func pinnedTransport(for url: URL) async throws -> PinnedTransport {
        try await pinnedTransport(for: url, over: transport)
    }

    /// Checks `url` like ``pinnedTransport(for:)`` and pins `base`, another transport, to the checked address: for
    /// requests that go through a client of their own, such as an account's calls to its PDS.
    public func pinnedTransport(for url: URL, over base: any HTTPTransport) async throws -> PinnedTransport {
        let addresses = try await checkedAddresses(url)
        return PinnedTransport(base: base, host: DestinationPolicy.host(of: url), address: addresses.first)
    }

    /// Checks `url` like ``checkDestination(_:)`` and returns the checked addresses of a host name (empty when the
    /// host is an address literal, which needs no resolution).
    func checkedAddresses(_ url: URL) async throws -> [IPAddress] {
        let kind = try policy.checkBeforeResolving(url)
        switch kind {
        case .domainName, .localhost:
            let addresses = try await resolve(DestinationPolicy.host(of: url))
            try policy.checkResolved(kind, addresses: addresses)
            return addresses
        case .address, .specialUseName, .invalid:
            return []
        }
    }

    /// Sends a `GET` for `url` after ``checkDestination(_:)`` and returns the answer once it meets `expectation`.
    ///
    /// Throws ``FetchError`` only: a refused destination, a transport failure (``FetchError/networkFailure(_:)``),
    /// a redirect, an unexpected status (with the server's `error` and `error_description` when it sent JSON),
    /// a missing JSON content type, or a body over the size cap.
    public func get(_ url: URL, expecting expectation: FetchExpectation) async throws -> HTTPResponse {
        let pinned = try await pinnedTransport(for: url)
        let request = HTTPRequest(method: .get, url: url, headers: ["Accept": expectation.accept])
        let response: HTTPResponse
        do {
            response = try await pinned.send(request)
        } catch let error as FetchError {
            throw error
        } catch let error as TransportError {
            throw FetchError.networkFailure(error.description)
        } catch {
            throw FetchError.networkFailure(
                "Could not reach \(url.redactedDescription): \(error) — check the address and the network"
            )
        }
        try check(response, from: url, against: expectation)
        return response
    }

    /// Checks an answer against the size cap, the no-redirect rule, the status and the content type.
    func check(_ response: HTTPResponse, from url: URL, against expectation: FetchExpectation) throws {
        guard response.body.count <= configuration.maximumResponseSize else {
            throw FetchError.responseTooLarge(url: url, limit: configuration.maximumResponseSize)
        }
        if (300..<400).contains(response.status) {
            throw FetchError.redirectRefused(url: url, status: response.status, location: response.headers["Location"])
        }
        guard expectation.status.accepts(response.status) else {
            let answer = ServerErrorBody(response.body)
            throw FetchError.unexpectedStatus(
                url: url,
                status: response.status,
                expected: expectation.status.expectation,
                serverError: answer.error,
                serverErrorDescription: answer.explanation
            )
        }
        if expectation.requiresJSON && !ContentTypeField.isJSON(response.headers["Content-Type"]) {
            throw FetchError.unexpectedContentType(url: url, contentType: response.headers["Content-Type"])
        }
    }

    private func resolve(_ host: String) async throws -> [IPAddress] {
        do {
            return try await addressResolver.addresses(for: host)
        } catch let error as FetchError {
            throw error
        } catch {
            throw FetchError.cannotResolve(host, String(describing: error))
        }
    }
}
