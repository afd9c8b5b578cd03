import ATProtoIdentity
import ATProtoPermissions
import ATProtoSyntax
import Foundation
import HTTPTransport
import Keystore
import Logging
import WireFormat

extension SessionManager {
    /// The scope an app-password session is described with when its access JWT names none.
    static let appPasswordScope = "com.atproto.appPass"

    /// Signs in with an app password (`com.atproto.server.createSession`), the legacy way beside OAuth, and stores
    /// the session.
    ///
    /// The account is resolved and checked as for OAuth (handle and DID both ways, the DID document's PDS); the
    /// PDS must answer for that DID. When it asks for a sign-in code (`AuthFactorTokenRequired`), `authFactor` is
    /// asked once and the request sent again with it. Nothing of the password is kept; the JWTs are stored
    /// encrypted. A session the account had here before is replaced and ended at its server, as
    /// ``completeSignIn(callbackURL:)`` does.
    /// - Parameters:
    ///   - input: the account's handle or DID.
    ///   - password: the app password.
    ///   - replacingOAuth: whether an OAuth session the account has here may be replaced; when `false`, such a
    ///     session is kept and ``SessionError/oauthSessionKept(account:scope:)`` thrown before the password is sent.
    ///   - authFactor: returns the sign-in code when the PDS asks for one, or `nil` when there is none.
    /// - Returns: the new session, and what became of the previous one.
    /// - Throws: ``SessionError``, `IdentityError` or `FetchError` naming the failed check; nothing is stored then.
    package func signInWithAppPassword(
        _ input: String,
        password: String,
        replacingOAuth: Bool,
        authFactor: @Sendable () async throws -> String?
    ) async throws -> SignInCompletion {
        guard !input.contains("://") else {
            throw SessionError.invalidInput(
                "An app-password sign-in needs the account's handle or DID, not a server address."
            )
        }
        let identity = try await identityResolver.resolve(input, cachePolicy: .reload)
        guard let did = identity.did else { throw SessionError.signInNeeded("\(input) names no account") }
        if !replacingOAuth, let existing = try await store.session(did), existing.kind == .oauth {
            throw SessionError.oauthSessionKept(account: existing.displayName, scope: existing.scope)
        }
        let endpoint = try Self.xrpcURL(identity.pds, "com.atproto.server.createSession")
        var request = ["identifier": did.rawValue, "password": password]
        var response = try await postLegacy(endpoint, bearer: nil, json: request, purpose: "app-password sign-in")
        if response.status == 401, ServerErrorBody(response.body).error == "AuthFactorTokenRequired" {
            guard let code = try await authFactor(), !code.isEmpty else { throw SessionError.authFactorRequired }
            request["authFactorToken"] = code
            response = try await postLegacy(endpoint, bearer: nil, json: request, purpose: "app-password sign-in")
        }
        guard response.isSuccess else {
            let body = ServerErrorBody(response.body, limit: nil)
            // A server error or a rate limit says nothing of the password (RFC 9110 §15.6, RFC 6585 §4).
            if response.status >= 500 || response.status == 429 {
                throw SessionError.requestFailed(
                    "the app-password sign-in",
                    status: response.status,
                    serverError: body.error,
                    description: body.explanation
                )
            }
            throw SessionError.appPasswordRefused(
                status: response.status,
                serverError: body.error,
                message: body.explanation
            )
        }
        guard let answer = LegacySessionAnswer(response.body) else {
            throw SessionError.invalidTokenResponse("the createSession answer has no accessJwt, refreshJwt or did")
        }
        let session: Session
        let replaced: SessionStore.Replaced?
        do {
            guard answer.did == did.rawValue else {
                throw SessionError.subjectMismatch("the PDS signed in \(answer.did), but sign-in started for \(did)")
            }
            session = try appPasswordSession(answer, identity: identity, did: did)
            replaced = try await store.keystore.withLock(Session.entryName(did: did)) {
                try await store.replace(with: session, key: nil)
            }
        } catch {
            await endUnkeptLegacySession(answer.refreshJwt, pds: identity.pds)
            throw error
        }
        broadcaster.publish(.updated(did: did))
        logger.info("signed in as \(did) with an app password")
        return SignInCompletion(session: session, previousGrant: await revokeReplaced(replaced))
    }

    private func appPasswordSession(
        _ answer: LegacySessionAnswer,
        identity: ResolvedIdentity,
        did: DID
    ) throws -> Session {
        let issuedAt = now()
        let claims = LegacyJWTClaims(token: answer.accessJwt)
        return Session(
            did: did,
            handle: identity.handle,
            pds: identity.pds,
            scope: claims?.scope.flatMap { ScopeSet.isWellFormed($0) ? $0 : nil } ?? Self.appPasswordScope,
            accessToken: answer.accessJwt,
            accessTokenExpiresAt: claims?.expiry(issuedAt: issuedAt),
            refreshToken: answer.refreshJwt,
            createdAt: issuedAt,
            updatedAt: issuedAt,
            credential: .appPassword(
                AppPasswordGrant(
                    refreshEndpoint: try Self.xrpcURL(identity.pds, "com.atproto.server.refreshSession"),
                    deleteEndpoint: try Self.xrpcURL(identity.pds, "com.atproto.server.deleteSession")
                )
            ),
            identityServices: identityServices
        )
    }

    /// Ends, best effort, a legacy session whose JWTs cannot be kept (RFC 7009 §2 in spirit: no forgotten grant).
    func endUnkeptLegacySession(_ refreshJwt: String, pds: URL) async {
        do {
            try await deleteLegacySession(
                refreshJwt: refreshJwt,
                endpoint: try Self.xrpcURL(pds, "com.atproto.server.deleteSession")
            )
        } catch {
            logger.warning("could not delete an app-password session that could not be kept: \(error)")
        }
    }
}
