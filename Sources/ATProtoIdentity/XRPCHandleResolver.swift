public import ATProtoSyntax
import Failures
public import Foundation
public import HTTPTransport

/// Resolves handles with a service's `com.atproto.identity.resolveHandle` instead of DNS and HTTPS
/// (atproto.com/specs/handle, Handle Resolution), for a configured resolver such as a development sandbox.
public struct XRPCHandleResolver: HandleResolver {
    /// The service's base URL; the query goes to `<service>/xrpc/com.atproto.identity.resolveHandle`.
    public let service: URL
    private let fetcher: SafeFetcher

    /// Creates a resolver that asks `service`, through the safe fetcher.
    public init(service: URL, fetcher: SafeFetcher) {
        self.service = service
        self.fetcher = fetcher
    }

    /// Asks the service for the handle's DID: `GET …?handle=<handle>`, exactly 200, JSON `{"did": …}`.
    public func resolve(_ handle: Handle) async throws -> DID {
        try handle.checkResolvable()
        guard let endpoint = service.appendingWellKnownPath("/xrpc/com.atproto.identity.resolveHandle"),
            var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
        else {
            throw IdentityError.invalidInput("the handle resolver URL \(service) cannot be used")
        }
        components.queryItems = [URLQueryItem(name: "handle", value: handle.rawValue)]
        guard let url = components.url else {
            throw IdentityError.invalidInput("the handle resolver URL \(service) cannot be used")
        }
        let body: Data
        do {
            body = try await fetcher.get(url, expecting: .xrpc).body
        } catch let error as FetchError where error.category != .securityCheckFailed {
            throw IdentityError.handleResolutionFailed(
                error.isNetworkFailure ? Sentence.clause(error.reason) : error.reason,
                status: error.status,
                serverError: error.serverError,
                serverErrorDescription: error.serverErrorDescription,
                isNetworkFailure: error.isNetworkFailure,
                handle: handle.rawValue
            )
        }
        let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        guard let did = object?["did"] as? String else {
            throw IdentityError.handleResolutionFailed("the resolver's answer for \(handle) has no “did” string")
        }
        return try Self.resolvedDID(did, for: handle, via: "the resolver")
    }
}
