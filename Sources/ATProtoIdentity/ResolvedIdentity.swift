public import ATProtoSyntax
public import Foundation

/// Who the user named and where their PDS is, after the identity checks (atproto.com/specs/oauth, Identity Authentication).
public struct ResolvedIdentity: Sendable, Hashable {
    /// The account's DID; `nil` when the user gave a server URL instead of an account.
    public let did: DID?
    /// The account's handle, confirmed in both directions; `nil` for a server URL or a document without one.
    public let handle: Handle?
    /// The PDS (or entryway) origin, such as `https://pds.example.com`, normalized, without a trailing slash.
    public let pds: URL
    /// The DID document that was checked; `nil` for a server URL.
    public let document: DIDDocument?

    /// Creates a resolved identity.
    public init(did: DID?, handle: Handle?, pds: URL, document: DIDDocument?) {
        self.did = did
        self.handle = handle
        self.pds = pds
        self.document = document
    }
}
