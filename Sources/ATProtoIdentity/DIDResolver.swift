public import ATProtoSyntax
import Failures
public import Foundation
public import HTTPTransport

/// Fetches and checks the DID document of a `did:plc` or `did:web` (atproto.com/specs/did).
///
/// `did:plc` documents come from `<plc-directory>/<did>`; `did:web` documents from
/// `https://<host>/.well-known/did.json`, or `http://localhost:<port>/.well-known/did.json` for
/// `did:web:localhost%3A<port>` in development mode only. Every fetch goes through the ``SafeFetcher``.
public struct DIDResolver: Sendable {
    /// The public PLC directory, `https://plc.directory`.
    public static let defaultPLCDirectory = URL(staticString: "https://plc.directory")

    /// Where `did:plc` documents are fetched.
    public let plcDirectory: URL
    private let fetcher: SafeFetcher

    /// Creates a resolver that fetches through `fetcher` from `plcDirectory`.
    public init(fetcher: SafeFetcher, plcDirectory: URL = DIDResolver.defaultPLCDirectory) {
        self.fetcher = fetcher
        self.plcDirectory = plcDirectory
    }

    /// The URL the DID's document is fetched from; throws ``IdentityError`` for DIDs this client does not resolve.
    public func documentURL(for did: DID) throws -> URL {
        let location: URL?
        switch try did.resolutionTarget() {
        case .plc:
            location = plcDirectory.appendingWellKnownPath("/\(did.rawValue)")
        case .web(let host, nil):
            location = URL(string: "https://\(host)/.well-known/did.json")
        case .web(let host, let port?):
            guard fetcher.configuration.allowHTTPLoopback else {
                throw FetchError.unsafeDestination(
                    "\(did) names a localhost port, which only the development option that allows loopback accepts"
                )
            }
            location = URL(string: "http://\(host):\(port)/.well-known/did.json")
        }
        guard let location else { throw SyntaxError.unusable(.did, did.rawValue, "it cannot form a document URL") }
        return location
    }

    /// Fetches the document (exactly 200, no redirects), decodes it and checks that its `id` is the DID.
    ///
    /// Throws ``IdentityError/didResolutionFailed(_:status:)`` when the document cannot be fetched,
    /// ``IdentityError/invalidDIDDocument(_:field:)`` when it is not a document for this DID, and the fetcher's
    /// security errors unchanged.
    public func resolve(_ did: DID) async throws -> DIDDocument {
        let url = try documentURL(for: did)
        let body: Data
        do {
            body = try await fetcher.get(url, expecting: .document).body
        } catch let error as FetchError where error.category != .securityCheckFailed {
            let gone = error.status == 404 || error.status == 410 ? " — the DID is unknown or deactivated" : ""
            throw IdentityError.didResolutionFailed(
                error.isNetworkFailure ? Sentence.clause(error.reason) : "\(error.reason)\(gone)",
                status: error.status,
                isNetworkFailure: error.isNetworkFailure,
                did: did.rawValue
            )
        }
        let document = try DIDDocument(json: body)
        try document.check(for: did)
        return document
    }
}
