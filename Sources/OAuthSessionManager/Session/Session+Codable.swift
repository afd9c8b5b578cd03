import ATProtoPermissions
import ATProtoSyntax
import Foundation

/// The stored form: one flat JSON object, the same members every earlier version wrote, so sessions stored before
/// the credential existed keep loading and an older atoauth can still read a session this one wrote.
///
/// An app-password session keeps its PDS in `issuer`, an empty `clientID`, and its `refreshSession` and
/// `deleteSession` URLs in `tokenEndpoint` and `revocationEndpoint`; `kind` is missing in sessions stored before
/// app-password sessions existed, which are all OAuth.
extension Session: Codable {
    enum CodingKeys: String, CodingKey {
        case did, handle, pds, issuer, scope, accessToken, accessTokenExpiresAt, refreshToken, clientID
        case tokenEndpoint, revocationEndpoint, createdAt, updatedAt, requestedScope, kind, clientKeyID
        case refreshTokenExpiresAt, plcDirectory, handleResolver
    }

    /// Reads the stored form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decodeIfPresent(SessionKind.self, forKey: .kind) ?? .oauth
        let tokenEndpoint = try container.decode(URL.self, forKey: .tokenEndpoint)
        let revocationEndpoint = try container.decodeIfPresent(URL.self, forKey: .revocationEndpoint)
        let credential: Credential
        switch kind {
        case .oauth:
            credential = .oauth(
                OAuthGrant(
                    issuer: try container.decode(String.self, forKey: .issuer),
                    clientID: try container.decode(String.self, forKey: .clientID),
                    tokenEndpoint: tokenEndpoint,
                    revocationEndpoint: revocationEndpoint,
                    clientKeyID: try container.decodeIfPresent(String.self, forKey: .clientKeyID)
                )
            )
        case .appPassword:
            guard let revocationEndpoint else {
                throw DecodingError.keyNotFound(
                    CodingKeys.revocationEndpoint,
                    DecodingError.Context(codingPath: [], debugDescription: "an app-password session needs it")
                )
            }
            credential = .appPassword(
                AppPasswordGrant(refreshEndpoint: tokenEndpoint, deleteEndpoint: revocationEndpoint)
            )
        }
        let scope = try container.decode(String.self, forKey: .scope)
        guard ScopeSet.isWellFormed(scope) else {
            throw DecodingError.dataCorruptedError(
                forKey: .scope,
                in: container,
                debugDescription: "the scope is not a list of RFC 6749 §3.3 tokens"
            )
        }
        self.init(
            did: try container.decode(DID.self, forKey: .did),
            handle: try container.decodeIfPresent(Handle.self, forKey: .handle),
            pds: try container.decode(URL.self, forKey: .pds),
            scope: scope,
            requestedScope: try container.decodeIfPresent(String.self, forKey: .requestedScope),
            accessToken: try container.decode(String.self, forKey: .accessToken),
            accessTokenExpiresAt: try container.decodeIfPresent(Date.self, forKey: .accessTokenExpiresAt),
            refreshToken: try container.decodeIfPresent(String.self, forKey: .refreshToken),
            refreshTokenExpiresAt: try container.decodeIfPresent(Date.self, forKey: .refreshTokenExpiresAt),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            updatedAt: try container.decode(Date.self, forKey: .updatedAt),
            credential: credential,
            identityServices: IdentityServices(
                plcDirectory: try container.decodeIfPresent(URL.self, forKey: .plcDirectory),
                handleResolver: try container.decodeIfPresent(URL.self, forKey: .handleResolver)
            )
        )
    }

    /// Writes the stored form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(did, forKey: .did)
        try container.encodeIfPresent(handle, forKey: .handle)
        try container.encode(pds, forKey: .pds)
        try container.encode(scope, forKey: .scope)
        try container.encodeIfPresent(requestedScope, forKey: .requestedScope)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encodeIfPresent(accessTokenExpiresAt, forKey: .accessTokenExpiresAt)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(refreshTokenExpiresAt, forKey: .refreshTokenExpiresAt)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(kind, forKey: .kind)
        try container.encode(issuer, forKey: .issuer)
        try container.encodeIfPresent(identityServices?.plcDirectory, forKey: .plcDirectory)
        try container.encodeIfPresent(identityServices?.handleResolver, forKey: .handleResolver)
        switch credential {
        case .oauth(let grant):
            try container.encode(grant.clientID, forKey: .clientID)
            try container.encode(grant.tokenEndpoint, forKey: .tokenEndpoint)
            try container.encodeIfPresent(grant.revocationEndpoint, forKey: .revocationEndpoint)
            try container.encodeIfPresent(grant.clientKeyID, forKey: .clientKeyID)
        case .appPassword(let grant):
            try container.encode("", forKey: .clientID)
            try container.encode(grant.refreshEndpoint, forKey: .tokenEndpoint)
            try container.encode(grant.deleteEndpoint, forKey: .revocationEndpoint)
        }
    }
}
