public import Foundation

/// Everything the sandbox can be told: accounts, ports, lifetimes, nonce period, consent mode, faults, withheld
/// permissions and permission sets.
///
/// All settings but ``ports`` can be changed while the server runs, with
/// ``SandboxServer/updateConfiguration(_:)``; the next request sees the change.
public struct SandboxConfiguration: Sendable, Hashable {
    /// The ports of the three origins; `0` lets the system choose a free one.
    public struct Ports: Sendable, Hashable {
        /// The PLC directory's port.
        public var plcDirectory: Int
        /// The PDS's port (the resource server and handle resolver).
        public var pds: Int
        /// The authorization server's port.
        public var authorizationServer: Int

        /// Creates a set of ports; by default the system chooses.
        public init(plcDirectory: Int = 0, pds: Int = 0, authorizationServer: Int = 0) {
            self.plcDirectory = plcDirectory
            self.pds = pds
            self.authorizationServer = authorizationServer
        }
    }

    /// The accounts the sandbox hosts; the first is the default one for auto-approval.
    public var accounts: [SandboxAccount]
    /// The ports to listen on, all on 127.0.0.1; read once, at start.
    public var ports: Ports
    /// How long an access token lives, in seconds (default 30 minutes).
    public var accessTokenLifetime: TimeInterval
    /// How long a public client's session and its refresh tokens live, in seconds (default 2 weeks, the limit for
    /// public clients: atproto.com/specs/oauth, Tokens and Session Lifetime).
    public var sessionLifetime: TimeInterval
    /// How long a confidential client's session lives after sign-in, however often it is refreshed, in seconds
    /// (default 2 years, 63115200 s: the limit for confidential clients, atproto.com/specs/oauth, Tokens and Session
    /// Lifetime).
    public var confidentialSessionLifetime: TimeInterval
    /// How long each refresh token of a confidential client lives after it is issued, in seconds, within the session's
    /// lifetime (default 3 months, 7889400 s).
    public var confidentialRefreshTokenLifetime: TimeInterval
    /// How long a PAR `request_uri` lives, in seconds (default 300, RFC 9126 §2.2).
    public var requestURILifetime: TimeInterval
    /// How long an authorization code lives, in seconds (default 300).
    public var authorizationCodeLifetime: TimeInterval
    /// How often each origin rotates its DPoP nonce, in seconds (default 60); the previous, current and next are
    /// accepted.
    public var nonceRotationPeriod: TimeInterval
    /// How long a proof's `jti` is remembered to refuse replays, in seconds (default 200, longer than a proof is
    /// taken after its `iat`); a proof dated ahead is remembered until its `iat` is too old (RFC 9449 §11.1).
    public var jtiLifetime: TimeInterval
    /// Whether `GET /oauth/authorize` approves at once and redirects, without a consent page (for scripts).
    public var autoApprove: Bool
    /// The faults to inject.
    public var faults: SandboxFaults
    /// Client metadata documents by `client_id` (an `https` URL), each the JSON the client would host there, and
    /// JWK Sets (`{"keys": […]}`) by the `jwks_uri` of a confidential client's document.
    ///
    /// The sandbox never fetches from the network: a hosted client (or `jwks_uri`) whose document is not here is
    /// refused, except one at an `http://127.0.0.1:PORT/…` or `http://[::1]:PORT/…` URL, which the authorization
    /// server fetches and keeps ten minutes (``SandboxServer/resetClientCache()`` drops them). A document here is
    /// read at every request, so a change counts at once. The loopback client `http://localhost` needs none.
    public var clientMetadataDocuments: [String: Data]
    /// Permission tokens the authorization server declines to grant even when asked, compared in canonical form
    /// (`repo:x` is `repo?collection=x`); `atproto` may be withheld too.
    ///
    /// Every grant and every refresh applies the current list, so a test can take a permission away at refresh.
    public var withheldPermissions: [String]
    /// The permission sets the PDS publishes and the authorization server expands for `include:` scopes
    /// (default: ``SandboxPermissionSet/createPosts``); the first set with an NSID wins.
    public var permissionSets: [SandboxPermissionSet]

    /// Creates a configuration; the defaults follow the reference server where the spec leaves a choice.
    public init(
        accounts: [SandboxAccount] = SandboxAccount.defaults,
        ports: Ports = Ports(),
        accessTokenLifetime: TimeInterval = 30 * 60,
        sessionLifetime: TimeInterval = 14 * 24 * 60 * 60,
        confidentialSessionLifetime: TimeInterval = SandboxConfiguration.defaultConfidentialSessionLifetime,
        confidentialRefreshTokenLifetime: TimeInterval = SandboxConfiguration.defaultConfidentialRefreshTokenLifetime,
        requestURILifetime: TimeInterval = 300,
        authorizationCodeLifetime: TimeInterval = 300,
        nonceRotationPeriod: TimeInterval = 60,
        jtiLifetime: TimeInterval = 200,
        autoApprove: Bool = false,
        faults: SandboxFaults = .none,
        clientMetadataDocuments: [String: Data] = [:],
        withheldPermissions: [String] = [],
        permissionSets: [SandboxPermissionSet] = SandboxPermissionSet.defaults
    ) {
        self.accounts = accounts
        self.ports = ports
        self.accessTokenLifetime = accessTokenLifetime
        self.sessionLifetime = sessionLifetime
        self.confidentialSessionLifetime = confidentialSessionLifetime
        self.confidentialRefreshTokenLifetime = confidentialRefreshTokenLifetime
        self.requestURILifetime = requestURILifetime
        self.authorizationCodeLifetime = authorizationCodeLifetime
        self.nonceRotationPeriod = nonceRotationPeriod
        self.jtiLifetime = jtiLifetime
        self.autoApprove = autoApprove
        self.faults = faults
        self.clientMetadataDocuments = clientMetadataDocuments
        self.withheldPermissions = withheldPermissions
        self.permissionSets = permissionSets
    }

    /// Two years of 365.25 days, in seconds: a confidential client's session lifetime by default.
    public static let defaultConfidentialSessionLifetime: TimeInterval = 2 * 365.25 * 24 * 60 * 60
    /// A quarter of a year of 365.25 days, in seconds: a confidential client's refresh token lifetime by default.
    public static let defaultConfidentialRefreshTokenLifetime: TimeInterval = 365.25 / 4 * 24 * 60 * 60

    /// The account with this handle or DID, case-insensitively for handles.
    public func account(for identifier: String) -> SandboxAccount? {
        if identifier.hasPrefix("did:") {
            return accounts.first { $0.did == identifier }
        }
        let handle = identifier.lowercased()
        return accounts.first { $0.handle == handle }
    }
}
