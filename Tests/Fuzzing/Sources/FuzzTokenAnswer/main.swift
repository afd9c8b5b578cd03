// An authorization server's token answer (RFC 6749 §5.1 and §5.2, RFC 9449 §5): the checks a client makes before
// it keeps tokens (atproto.com/specs/oauth, Authorization Flow), the lifetime it believes, and the OAuth error of a
// refusal. A failed check must never quote a token in its message.
//
// The same body is also read as a PDS's legacy session answer (Lexicon com.atproto.server.createSession#output),
// whose JWTs' claims (RFC 7519 §4.1) schedule an app-password session's refresh.
//
// Input: the JSON body.

import ATProtoPermissions
import ATProtoSyntax
import Foundation
import FuzzSupport
import HTTPTransport
import WireFormat

@testable import OAuthSessionManager

/// The `access_token` and `refresh_token` strings of the body, when it is an object.
func tokens(in body: Data) -> [String] {
    guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return [] }
    let tokens = ["access_token", "refresh_token"].compactMap { object[$0] as? String }
    // A token repeated in another member (say, as `token_type`) is quoted as that member, which is not a leak.
    let others = object.filter { !["access_token", "refresh_token"].contains($0.key) }.map { "\($0.value)" }
    return tokens.filter { token in token.count >= 8 && !others.contains { $0.contains(token) } }
}

/// The legacy answer's checks: every member it keeps is a non-empty string, and the claims read from its JWTs (or
/// from the whole input as one token) never give a date that is not finite.
func checkLegacyAnswer(_ input: FuzzInput) {
    var tokens = [input.text]
    if let answer = LegacySessionAnswer(input.data) {
        invariant(!answer.accessJwt.isEmpty && !answer.refreshJwt.isEmpty, "both JWTs are kept, not empty")
        invariant(!answer.did.isEmpty, "the answer names its account")
        tokens += [answer.accessJwt, answer.refreshJwt]
    }
    for token in tokens {
        guard let claims = LegacyJWTClaims(token: token), let expiry = claims.expiresAt else { continue }
        invariant(expiry.timeIntervalSince1970.isFinite, "a JWT's expiry is a date")
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        let believed = claims.expiry(issuedAt: now)
        invariant(
            believed.map { $0 <= now.addingTimeInterval(TokenResponse.maximumLifetime) } == true,
            "capped at a day"
        )
    }
}

Fuzzer.run { input in
    checkLegacyAnswer(input)
    do {
        let answer = try TokenResponse.checked(input.data)
        invariant(answer.tokenType == "DPoP", "only DPoP-bound tokens are kept")
        invariant(answer.sub.map(DID.isValid) == true, "the subject is a DID")
        invariant(answer.scope?.split(separator: " ").contains("atproto") == true, "the scope has atproto")
        invariant(answer.scope.map(ScopeSet.isWellFormed) == true, "a kept scope is RFC 6749 §3.3 tokens only")
        invariant(!answer.accessToken.isEmpty, "the access token is not empty")
        if let lifetime = answer.lifetime {
            invariant(
                lifetime > 0 && lifetime <= TokenResponse.maximumLifetime,
                "the lifetime is positive, at most a day"
            )
            invariant(Date(timeIntervalSinceNow: lifetime).timeIntervalSinceNow.isFinite, "the expiry is a date")
        }
        _ = ScopeSet(granted: answer.scope ?? "")
    } catch {
        invariantPrintable(error)
        for token in tokens(in: input.data) {
            invariant(!String(describing: error).contains(token), "a failed check never quotes a token")
        }
    }
    for status in [400, 401] {
        let response = HTTPResponse(status: status, body: input.data)
        let (code, description) = SessionManager.oauthError(in: response)
        do {
            try SessionManager.requireSuccess(response, of: "the token request")
            invariant(false, "a \(status) is not a success")
        } catch let error as SessionError {
            invariantPrintable(error)
            invariant(error.status == status, "the error keeps the status")
            invariant(error.serverError?.rawValue == code, "the error keeps the server's code")
            invariant(description == nil || error.serverErrorDescription != nil, "the error keeps the description")
        } catch {
            invariant(false, "a refusal is a SessionError, not \(error)")
        }
    }
}
