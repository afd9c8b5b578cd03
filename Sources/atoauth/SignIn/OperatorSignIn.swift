import AccountManager
import Foundation
import Keystore
import OAuthMetadata
import OAuthSessionManager
import WireFormat

/// A confidential client's sign-in from a terminal (`accounts add --client-key`): the operator approves in a
/// browser, which ends on the service's https redirect page, and pastes that page's address here.
///
/// The redirect URI is the client's own (a page that does nothing with the code but show its address), so no
/// listener runs; the pasted address must be that URI with this sign-in's `state` (RFC 6749 §4.1.2, §10.12).
struct OperatorSignIn {
    let options: BrowserSignInOptions
    /// The client metadata document's URL.
    let clientID: URL
    /// A private key file (JWK or PEM) or the `kid` of a key in the store.
    let clientKey: ClientKeyArgument
    /// The redirect URI to use, when the document has several.
    let redirectURI: URL?

    /// Runs the sign-in, with the address the operator pastes.
    func run(_ context: CLIContext, _ steps: SignInSteps) async throws -> AccountSignIn {
        let signingKey = try await signingKey(context)
        let client = try await signingKey.client(for: self, context.accounts)
        let request = try await steps.start(client)
        do {
            let signedIn = try await steps.finish(
                request,
                at: .page(RedirectPage(redirectURI: client.redirectURI, state: request.state)),
                options: options,
                environment: context.environment
            )
            if case .file(let key) = signingKey { await Self.reportAdded(key, context) }
            return signedIn
        } catch {
            // Outside this (possibly cancelled) task, so Ctrl-C still forgets the pending sign-in.
            let accounts = context.accounts
            await Task { try? await accounts.cancelAuthorization(state: request.state) }.value
            throw error
        }
    }

    /// The key a sign-in signs with: a key of the store's set, or a file's key the set does not hold yet.
    private enum SigningKey {
        case stored(keyID: String)
        /// Added to the store's key set only when the sign-in succeeds.
        case file(ClientKey)

        /// The sign-in's client, signing with this key.
        func client(for signIn: OperatorSignIn, _ accounts: AccountManager) async throws -> OAuthClient {
            let (id, uri, scope) = (signIn.clientID, signIn.redirectURI, signIn.options.requestedScope)
            switch self {
            case .stored(let keyID):
                return try await accounts.hostedClient(clientID: id, redirectURI: uri, scope: scope, clientKeyID: keyID)
            case .file(let key):
                return try await accounts.hostedClient(clientID: id, redirectURI: uri, scope: scope, signingWith: key)
            }
        }
    }

    /// The largest client key file read: a JWK or a PEM key is well under 1 KiB.
    static let maximumKeyFileSize = 64 << 10

    /// The key to sign with: a file's key (a file's key the store's set already holds signs as that stored key), or
    /// a `kid` already in the store.
    ///
    /// A file's key that is new to the set joins it only once the sign-in succeeds (``reportAdded(_:_:)``), so a
    /// refused or abandoned sign-in leaves the set as it was. A file readable by other users gets a warning, as ssh
    /// gives (and ssh even refuses such a key).
    private func signingKey(_ context: CLIContext) async throws -> SigningKey {
        let path: String
        switch clientKey {
        case .keyID(let keyID): return .stored(keyID: keyID)
        case .file(let file): path = file
        }
        let file = try UserFile.read(path, limit: Self.maximumKeyFileSize, what: "the client key file") {
            "--client-key: \($0) is larger than 64 KiB."
        }
        let shown = TerminalText.sanitized(path, limit: 200)
        if file.mode & 0o077 != 0 {
            Output.message(
                "Warning: the client key file \(shown) has mode \(FileMode.octal(file.mode)), so other users may read "
                    + "or change it; run chmod 600 on it."
            )
        }
        let key = try ClientKey(contents: file.data)
        let known = try await context.accounts.clientKeys().first { $0.record.keyID == key.keyID }
        guard let known else { return .file(key) }
        guard known.publicJWK == key.publicJWK else {
            throw CLIFailure(
                status: .usage,
                message: "--client-key: the store already has another key named \(key.keyID); rename one (kid)."
            )
        }
        return .stored(keyID: key.keyID)
    }

    /// Says that a successful sign-in added its file's key to the store's key set, and in which state.
    ///
    /// Beside other keys it is retiring, leaving their states as they were: this sign-in named its key, and the
    /// set's current key goes on signing the others; in an empty set it is current.
    private static func reportAdded(_ key: ClientKey, _ context: CLIContext) async {
        let record = try? await context.accounts.clientKeys().first { $0.record.keyID == key.keyID }?.record
        guard let record else { return }
        Output.message(
            record.state == .current
                ? "Added the client key \(key.keyID) to the store's key set; sessions signed in with it use it, and as "
                    + "the set's only key it is current: new sign-ins that name no key use it too."
                : "Added the client key \(key.keyID) to the store's key set as retiring: it signs for the "
                    + "sessions signed in with it, and new sign-ins keep the current key (`atoauth client keys`)."
        )
    }
}
