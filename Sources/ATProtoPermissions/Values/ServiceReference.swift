public import ATProtoSyntax

/// A DID service reference such as `did:web:api.bsky.app#bsky_appview`: a DID, `#` and a service ID, which names
/// the audience of `rpc` and `include` permissions (atproto.com/specs/permission, RPC).
public struct ServiceReference: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The service's DID, such as `did:web:api.bsky.app`.
    public let did: DID
    /// The service ID after the `#`, such as `bsky_appview`.
    public let serviceID: String

    /// Creates a reference from a DID and a service ID; `nil` when the ID is empty or has characters a URI fragment
    /// cannot hold (RFC 3986 §3.5), or when the DID is not one AT Protocol resolves.
    ///
    /// Only a `did:plc` and a host-name `did:web` (a port only as `did:web:localhost%3A…`) name a service
    /// (atproto.com/specs/did, Blessed DID Methods): the reference authorization server drops a permission with any
    /// other audience, and a PDS cannot proxy to one.
    public init?(did: DID, serviceID: String) {
        guard Self.isValidServiceID(serviceID), Self.canNameService(did) else { return nil }
        self.did = did
        self.serviceID = serviceID
    }

    /// Whether `did` can name a service: a `did:plc`, or a host-name `did:web` (a port only as
    /// `did:web:localhost%3A…`).
    public static func canNameService(_ did: DID) -> Bool {
        guard (try? did.resolutionTarget()) != nil else { return false }
        // The reference reads the port's escape in upper case only, as RFC 3986 §2.1 recommends writing it.
        return !did.rawValue.contains("%") || did.rawValue.hasPrefix("did:web:localhost%3A")
    }

    /// Reads `did#serviceID`; `nil` without exactly one `#`, with an invalid DID, or with an invalid service ID.
    public init?(rawValue: String) {
        let parts = rawValue.split(separator: "#", omittingEmptySubsequences: false)
        guard parts.count == 2, let did = try? DID(validating: String(parts[0])) else { return nil }
        self.init(did: did, serviceID: String(parts[1]))
    }

    /// `did#serviceID`.
    public var rawValue: String { did.rawValue + "#" + serviceID }

    /// `did#serviceID`.
    public var description: String { rawValue }

    /// What the parser expects, for error messages.
    static let expected = "a did:plc or did:web with a “#service” fragment"

    private static let serviceIDBytes = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?".utf8
    )

    private static func isValidServiceID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(serviceIDBytes.contains)
    }
}
