import ATProtoPermissions
import ATProtoSyntax
import Foundation

/// A token endpoint answer (RFC 6749 §5.1, RFC 9449 §5) and the checks a client must make on it
/// (atproto.com/specs/oauth, Authorization Flow).
struct TokenResponse: Decodable, Sendable {
    var accessToken: String
    var tokenType: String
    var expiresIn: Double?
    var refreshToken: String?
    var scope: String?
    var sub: String?
    var idToken: String?
    /// How long the refresh token lives, in seconds, when the server says: `refresh_token_expires_in`, a member
    /// RFC 6749 §5.1 does not define but allows (some servers send it); `nil` when absent or not a number.
    var refreshTokenExpiresIn: Double?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
        case sub
        case idToken = "id_token"
        case refreshTokenExpiresIn = "refresh_token_expires_in"
    }

    /// Reads the members; an unusable `refresh_token_expires_in`, which no specification defines, is ignored
    /// rather than refused.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        expiresIn = try container.decodeIfPresent(Double.self, forKey: .expiresIn)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        sub = try container.decodeIfPresent(String.self, forKey: .sub)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        refreshTokenExpiresIn = try? container.decodeIfPresent(Double.self, forKey: .refreshTokenExpiresIn)
    }

    /// The longest access token lifetime believed: one day.
    ///
    /// RFC 6749 §5.1 makes `expires_in` a lifetime in seconds with no upper bound, and atproto.com/specs/oauth
    /// (Tokens and Session Lifetime) expects access tokens to live minutes, not days. A longer claim (`1e308`, a
    /// 30-digit integer) is capped here, so the expiry is always a representable date and the session is refreshed
    /// no later than a day after it was issued; the server can still end it sooner with `invalid_token`.
    static let maximumLifetime: TimeInterval = 86_400

    /// The access token's lifetime in seconds: `expires_in` capped at ``maximumLifetime``, or `nil` when the
    /// server did not say (RFC 6749 §5.1 makes it optional).
    var lifetime: TimeInterval? {
        expiresIn.map { min($0, Self.maximumLifetime) }
    }

    /// The refresh token's lifetime in seconds, when the server gave a positive finite one; capped at a confidential
    /// client's session at the reference server, so the expiry is always a representable date.
    var refreshTokenLifetime: TimeInterval? {
        guard let seconds = refreshTokenExpiresIn, seconds > 0, seconds.isFinite else { return nil }
        return min(seconds, Session.confidentialClientSession)
    }

    /// Decodes and checks a response: `token_type` exactly `DPoP`, `sub` a valid DID, `scope` with `atproto`,
    /// no `id_token`, a finite positive `expires_in` when there is one (a negative, zero, infinite or non-numeric
    /// lifetime is refused; an absurdly long one is capped by ``lifetime``).
    static func checked(_ data: Data) throws -> TokenResponse {
        let response: TokenResponse
        do {
            response = try JSONDecoder().decode(TokenResponse.self, from: data)
        } catch {
            throw SessionError.invalidTokenResponse("it is not a JSON object with access_token and token_type")
        }
        guard response.tokenType == "DPoP" else {
            throw SessionError.invalidTokenResponse(tokenTypeRefusal(response.tokenType))
        }
        guard let sub = response.sub, DID.isValid(sub) else {
            throw SessionError.invalidTokenResponse("sub is missing or not a DID")
        }
        guard let scope = response.scope, scope.split(separator: " ").contains("atproto") else {
            throw SessionError.invalidTokenResponse("scope does not contain atproto")
        }
        guard ScopeSet.isWellFormed(scope) else {
            throw SessionError.invalidTokenResponse(
                "scope is not a list of RFC 6749 §3.3 tokens (printable ASCII but \" and \\, single spaces)"
            )
        }
        guard response.idToken == nil else {
            throw SessionError.invalidTokenResponse("it carries an id_token, which AT Protocol OAuth does not use")
        }
        guard !response.accessToken.isEmpty else { throw SessionError.invalidTokenResponse("access_token is empty") }
        if let expiresIn = response.expiresIn, !(expiresIn > 0 && expiresIn.isFinite) {
            throw SessionError.invalidTokenResponse("expires_in is not a positive number")
        }
        return response
    }

    /// Why `token_type` is refused.
    ///
    /// Only a registered type (RFC 6749 §11.1) is named: whatever else the server sent is not repeated, since a
    /// hostile or broken server may echo a token there.
    private static func tokenTypeRefusal(_ tokenType: String) -> String {
        let registered = ["bearer", "dpop", "mac", "n_a", "pop"]
        guard registered.contains(tokenType.lowercased()) else { return "token_type is not DPoP" }
        return "token_type is \(tokenType), not DPoP"
    }
}
