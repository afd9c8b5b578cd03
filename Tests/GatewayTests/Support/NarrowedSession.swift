import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import Foundation
import Keystore
import OAuthSessionManager

/// Signs alice in and makes her the active account, then stores her session with `scope` in place of the one
/// granted, and `pds` in place of her PDS when given: what a server granting less, or another PDS, would leave.
func narrowedSession(
    _ world: SandboxWorld,
    scope: String,
    pds: URL? = nil
) async throws -> (AccountManager, Session) {
    let accounts = world.accounts()
    var session = try await world.signIn(with: world.sessions())
    try await accounts.switchTo(.did(session.did))
    session.scope = scope
    if let pds { session.pds = pds }
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    try world.keystore.save(try encoder.encode(session), as: Session.entryName(did: session.did))
    return (accounts, session)
}
