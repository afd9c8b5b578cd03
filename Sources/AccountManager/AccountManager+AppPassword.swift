public import ATProtoSyntax
public import Foundation
public import OAuthMetadata
public import OAuthSessionManager

extension AccountManager {
    /// Signs in with an app password (`com.atproto.server.createSession`), stores the session and makes the account
    /// active; the legacy way, beside OAuth.
    ///
    /// The account is checked as for OAuth (handle and DID both ways, the DID document's PDS), and the PDS must answer
    /// for its DID; when it asks for a sign-in code (`AuthFactorTokenRequired`), `authFactor` is asked once. A session
    /// the account had here before is replaced and ended at its server, as ``callback(_:)`` reports; an OAuth session
    /// only when `replacingOAuth` says so, since the app-password session that takes its place is not limited to the
    /// permissions the user granted.
    /// - Parameters:
    ///   - identifier: the account's handle or DID.
    ///   - password: the app password; it is sent once and never stored.
    ///   - replacingOAuth: whether an OAuth session of the account may be replaced; when `false` (the default),
    ///     `SessionError.oauthSessionKept` is thrown before the password is sent.
    ///   - authFactor: returns the sign-in code when the PDS asks for one (two-factor sign-in), or `nil`.
    /// - Returns: the signed-in account, and the previous session's revocation when there was one.
    /// - Throws: `SessionError`, `IdentityError` or `FetchError` naming the failed check; nothing is stored then.
    public func signInWithAppPassword(
        _ identifier: ATIdentifier,
        password: String,
        replacingOAuth: Bool = false,
        authFactor: @Sendable () async throws -> String? = { nil }
    ) async throws -> AccountSignIn {
        let completion = try await sessions.signInWithAppPassword(
            identifier.description,
            password: password,
            replacingOAuth: replacingOAuth,
            authFactor: authFactor
        )
        return try await adopt(completion, activate: true)
    }

    /// Starts moving an app-password account to OAuth: the same sign-in as ``authorize(_:client:prompt:progress:)``, started from
    /// the account's DID so that only that account's tokens can complete it.
    ///
    /// Nothing changes until ``completeUpgrade(callbackURL:)`` stores the OAuth session.
    /// - Throws: ``AccountError`` when the account is not signed in here, or already signs in with OAuth.
    public func authorizeUpgrade(
        _ identifier: ATIdentifier,
        client: OAuthClient,
        progress: @Sendable (SignInStep) -> Void = { _ in }
    ) async throws -> AuthorizationRequest {
        let account = try await account(identifier)
        guard account.kind == .appPassword else { throw AccountError.alreadyOAuth(account.displayName) }
        return try await sessions.startSignIn(account.did.rawValue, client: client, progress: progress)
    }

    /// Completes an upgrade started with ``authorizeUpgrade(_:client:progress:)``: stores the OAuth session in place of the
    /// app-password session, ends that one at the PDS (`com.atproto.server.deleteSession`, best effort, reported as
    /// `previousGrant`), and leaves the account active or not as it was.
    ///
    /// When a check fails, nothing is stored and the app-password session stays as it was.
    public func completeUpgrade(callbackURL url: URL) async throws -> AccountSignIn {
        try await adopt(try await sessions.completeSignIn(callbackURL: url), activate: false)
    }

    /// Forgets what this process knew of the signed-in account, and makes it active when asked.
    ///
    /// The session is stored by then, so this runs to its end even when the caller is cancelled: a cancellation
    /// (Ctrl-C) after the store cannot leave the account signed in but not made active.
    func adopt(_ completion: SignInCompletion, activate: Bool) async throws -> AccountSignIn {
        try await uncancelled { try await self.settle(completion, activate: activate) }
    }

    /// Runs `body` to its end even when the caller is cancelled, for what must follow a change already made to the
    /// store (a session stored or deleted), so that a Ctrl-C cannot leave the change half done.
    func uncancelled<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task { try await body() }.value
    }

    private func settle(_ completion: SignInCompletion, activate: Bool) async throws -> AccountSignIn {
        let session = completion.session
        connections[session.did] = nil
        directory.forget()
        await handleIndex.add(session.handle, of: session.did)
        if activate { try await setActive(session.did) }
        var active = activate
        if !active { active = try await activeDID() == session.did }
        return AccountSignIn(
            account: Account(session: session, active: active),
            previousGrant: completion.previousGrant
        )
    }
}
