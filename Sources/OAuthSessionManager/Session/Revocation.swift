/// What became of a session's grant at the server that issued it when the session was ended here: revoked at the
/// authorization server (RFC 7009), or ended at the PDS for an app-password session
/// (`com.atproto.server.deleteSession`).
public enum Revocation: Sendable, Hashable {
    /// The server confirmed: the tokens no longer work.
    case revoked
    /// The server offers no way to end the grant; the tokens expire by themselves.
    case notSupported
    /// The server could not be reached or refused; the session was deleted here anyway.
    case failed(reason: String)
}
