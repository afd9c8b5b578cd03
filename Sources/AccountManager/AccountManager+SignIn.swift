public import Foundation
public import OAuthMetadata
public import OAuthSessionManager

extension AccountManager {
    /// Starts a sign-in: resolves the account, checks its servers, sends the pushed authorization request, and
    /// returns the URL to open in the system browser (RFC 9126, RFC 8252 §7.3).
    ///
    /// - Parameters:
    ///   - input: a handle, a DID, or a PDS or entryway `https://` URL.
    ///   - client: the loopback development client, or a hosted one from ``hostedClient(clientID:redirectURI:scope:clientKeyID:)``.
    ///   - prompt: what the authorization server is asked to show (`login`, `consent`, `select_account`), or
    ///     `create` to sign up a new account where the server offers it; `input` is then the server's address.
    ///   - progress: told of each step (resolving, checking the servers, sending the request) as it starts, for a
    ///     front end to show while the network answers.
    /// - Returns: the authorization request; keep its `state` to cancel it.
    /// - Throws: `SyntaxError`, `IdentityError`, `FetchError` or `SessionError` naming the failed check.
    public func authorize(
        _ input: String,
        client: OAuthClient,
        prompt: SignInPrompt? = nil,
        progress: @Sendable (SignInStep) -> Void = { _ in }
    ) async throws -> AuthorizationRequest {
        try await sessions.startSignIn(input, client: client, prompt: prompt, progress: progress)
    }

    /// Completes a sign-in from the redirect URL (RFC 6749 §4.1.2, RFC 9207 §2), stores the session and makes the
    /// account active; nothing is stored when a check fails.
    ///
    /// When the account already had a session here, the new one replaces it, and the old grant's tokens are
    /// revoked at the server that issued them once the new session is stored (best effort, RFC 7009 §2); its DPoP
    /// key is replaced by the new one.
    ///
    /// Once the new session is stored, a cancellation no longer stops the sign-in: it finishes, and only the old
    /// grant's revocation may be cut short (`Revocation.failed`).
    /// - Returns: the signed-in account, and the old grant's revocation when there was one.
    public func callback(_ url: URL) async throws -> AccountSignIn {
        try await adopt(try await sessions.completeSignIn(callbackURL: url), activate: true)
    }

    /// Forgets a started sign-in (cancelled, timed out), so its `state` can never complete.
    public func cancelAuthorization(state: String) async throws {
        try await sessions.cancelSignIn(state: state)
    }

    /// Fetches and checks a hosted client metadata document and returns the client for one sign-in.
    ///
    /// - Parameters:
    ///   - clientID: the document's https URL, which must equal its `client_id`.
    ///   - redirectURI: one of its redirect URIs (a loopback entry accepts the listener's port); `nil` for the
    ///     document's only one.
    ///   - scope: the scope to request, within the document's; `nil` asks for the document's.
    ///   - clientKeyID: for a confidential client (`private_key_jwt`), the `kid` of the store's client key that signs
    ///     its assertions; `nil` for the set's current key. The document must publish it.
    /// - Returns: the client.
    /// - Throws: `SessionError` when the document is invalid, or a confidential client's key is missing or not
    ///   published; `FetchError` when it cannot be fetched.
    public func hostedClient(
        clientID: URL,
        redirectURI: URL?,
        scope: String? = nil,
        clientKeyID: String? = nil
    ) async throws -> OAuthClient {
        try await sessions.hostedClient(
            clientID: clientID,
            redirectURI: redirectURI,
            scope: scope,
            clientKeyID: clientKeyID
        )
    }

    /// Fetches and checks a confidential client's metadata document and returns the client for one sign-in signed
    /// with `clientKey`, a key the store's key set does not hold (an operator's key file).
    ///
    /// The key is kept in memory for this sign-in and added to the key set only once the sign-in succeeds
    /// (``callback(_:)``), as ``addPublishedClientKey(_:)`` adds it: a refused or abandoned sign-in
    /// leaves the set as it was.
    ///
    /// - Throws: `SessionError` when the document is invalid, is not a confidential client's, or does not publish the
    ///   key; `FetchError` when it cannot be fetched.
    public func hostedClient(
        clientID: URL,
        redirectURI: URL?,
        scope: String? = nil,
        signingWith clientKey: ClientKey
    ) async throws -> OAuthClient {
        try await sessions.hostedClient(
            clientID: clientID,
            redirectURI: redirectURI,
            scope: scope,
            signInKey: clientKey
        )
    }
}

/// A completed sign-in: the account, now active, and what became of the session it had here before.
public struct AccountSignIn: Sendable, Hashable {
    /// The signed-in account.
    public var account: Account
    /// The revocation of the previous session's grant when the account had one here; `nil` when it had none.
    public var previousGrant: Revocation?
}
