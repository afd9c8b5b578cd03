import ATProtoPermissions
public import ATProtoSyntax
public import Foundation
public import OAuthSessionManager

/// A signed-in account as the account list shows it; no tokens.
public struct Account: Sendable, Hashable, Codable {
    /// The account's DID.
    public var did: DID
    /// Its handle, when the DID document names one.
    public var handle: Handle?
    /// Its PDS origin.
    public var pds: URL
    /// The authorization server that issued its session.
    public var issuer: String
    /// The granted scope.
    public var scope: String
    /// Whether it is the active account.
    public var active: Bool
    /// The requested permissions the server did not grant, canonical and space-separated; `nil` when it granted
    /// all of them (atproto.com/specs/permission).
    public var missingScope: String?
    /// How its session authenticates: OAuth, or a legacy app password.
    public var kind: SessionKind

    /// The account of a session.
    public init(session: Session, active: Bool) {
        self.did = session.did
        self.handle = session.handle
        self.pds = session.pds
        self.issuer = session.issuer
        self.scope = session.scope
        self.active = active
        let missing = session.missingPermissions
        self.missingScope = missing.isEmpty ? nil : missing.description
        self.kind = session.kind
    }

    /// The account of a session that a forced client key removal ended: not signed in, as it was then.
    init(ended record: EndedSessionRecord) {
        self.did = record.did
        self.handle = record.handle
        self.pds = record.pds
        self.issuer = record.issuer
        self.scope = record.scope
        self.active = false
        self.missingScope = nil
        self.kind = .oauth
    }

    /// The handle when there is one, else the DID.
    public var displayName: String { handle?.description ?? did.rawValue }
}

extension Account {
    /// Whether `identifier` names this account: its DID, or its handle.
    public func matches(_ identifier: ATIdentifier) -> Bool {
        identifier.names(did: did, handle: handle)
    }
}
