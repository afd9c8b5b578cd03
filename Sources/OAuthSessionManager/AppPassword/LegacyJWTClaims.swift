package import Foundation

/// The few claims of a legacy session JWT that a client reads: when it expires, what it allows, and for whom.
///
/// The signature is not checked: only the PDS that issued the token can, and the client trusts the PDS it reached
/// over the checked identity anyway. The claims only schedule the refresh and describe the session; nothing is
/// allowed or refused because of them (RFC 7519 §4.1).
package struct LegacyJWTClaims: Sendable, Hashable {
    /// `exp`: when the token expires.
    package var expiresAt: Date?
    /// `scope`, such as `com.atproto.appPass`.
    package var scope: String?
    /// `sub`: the account's DID.
    package var subject: String?

    /// Reads the claims of a compact JWS (RFC 7515 §3.1); `nil` when the text is not three base64url parts with a
    /// JSON object in the middle.
    package init?(token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Self.base64URLDecoded(parts[1]),
            let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { return nil }
        if let raw = object["exp"], !(raw is Bool), let seconds = (raw as? NSNumber)?.doubleValue, seconds.isFinite {
            expiresAt = Date(timeIntervalSince1970: seconds)
        }
        scope = object["scope"] as? String
        subject = object["sub"] as? String
    }

    /// When the access token is believed to expire, issued at `now`: `exp` capped at
    /// ``TokenResponse/maximumLifetime`` from now, as an OAuth `expires_in` is, so a JWT claiming years (or a date
    /// no calendar holds) is refreshed within a day; `nil` when the token has no `exp`.
    func expiry(issuedAt now: Date) -> Date? {
        expiresAt.map { min($0, now.addingTimeInterval(TokenResponse.maximumLifetime)) }
    }

    private static func base64URLDecoded(_ text: Substring) -> Data? {
        guard !text.isEmpty, text.utf8.allSatisfy({ Self.alphabet.contains($0) }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
