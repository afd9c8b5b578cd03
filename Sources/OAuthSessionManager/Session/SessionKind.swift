/// How a session authenticates to the PDS.
///
/// An OAuth session sends a DPoP-bound access token with a proof on every request (RFC 9449 §7); an app-password
/// session, the legacy kind made by `com.atproto.server.createSession`, sends its access JWT as
/// `Authorization: Bearer` with no proof (RFC 6750 §2.1). The two are never mixed.
public enum SessionKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// AT Protocol OAuth with DPoP-bound tokens (atproto.com/specs/oauth).
    case oauth
    /// A legacy app-password session: a Bearer access JWT and a refresh JWT, rotated on every refresh.
    case appPassword = "app-password"
}
