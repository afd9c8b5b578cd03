import AccountManager
import Foundation
import OAuthSessionManager

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
    let clientKey: String
    /// The redirect URI to use, when the document has several.
    let redirectURI: URL?

    /// Runs the sign-in: `start` sends the authorization request, `complete` finishes it with the pasted address.
    func run(
        _ context: CLIContext,
        start: (OAuthClient) async throws -> AuthorizationRequest,
        complete: (URL) async throws -> AccountSignIn
    ) async throws -> AccountSignIn {
        let keyID = try await storedKeyID(context)
        let client = try await context.accounts.hostedClient(
            clientID: clientID,
            redirectURI: redirectURI,
            scope: options.scope,
            clientKeyID: keyID
        )
        let request = try await start(client)
        do {
            Output.message("Open this URL to sign in:\n\(request.url.absoluteString)")
            if !options.noBrowser,
                case .failed(let reason) = BrowserOpener.open(request.url, environment: context.environment)
            {
                Output.message("Could not open a browser: \(reason). Open the URL above yourself.")
            }
            let hidden = isatty(STDIN_FILENO) == 1 ? " (it is not shown)" : ""
            Output.message(
                "After you approve, the browser shows \(client.redirectURI.absoluteString)?…: copy its full address "
                    + "from the address bar, paste it here\(hidden) and press Enter."
            )
            let callback = try await pastedRedirect(client.redirectURI, state: request.state)
            return try await complete(callback)
        } catch {
            try? await context.accounts.cancelAuthorization(state: request.state)
            throw error
        }
    }

    /// The `kid` of the key to sign with: a file's key, added to the store's key set when it is not there yet (the
    /// operator published it: the document must list it), or a `kid` already in the store.
    ///
    /// A file's key added beside other keys leaves their states as they were: this sign-in names its key, and the
    /// set's current key goes on signing the others.
    private func storedKeyID(_ context: CLIContext) async throws -> String {
        let path = (clientKey as NSString).expandingTildeInPath
        guard FileManager.default.fileExists(atPath: path) else { return clientKey }
        let contents: Data
        do {
            contents = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIFailure(status: CLIFailure.usage, message: "--client-key: \(path) cannot be read.")
        }
        let key = try ClientKey(contents: contents)
        let known = try await context.accounts.clientKeys().first { $0.record.keyID == key.keyID }
        if let known {
            guard known.publicJWK == key.publicJWK else {
                throw CLIFailure(
                    status: CLIFailure.usage,
                    message: "--client-key: the store already has another key named \(key.keyID); rename one (kid)."
                )
            }
        } else {
            // Never made current over another key: that would sign every new sign-in without the publish wait.
            let record = try await context.accounts.addPublishedClientKey(key)
            Output.message(
                record.state == .current
                    ? "Added the client key \(key.keyID) to the store's key set; sessions signed in with it use it."
                    : "Added the client key \(key.keyID) to the store's key set as retiring: it signs for the "
                        + "sessions signed in with it, and new sign-ins keep the current key (`atoauth client keys`)."
            )
        }
        return key.keyID
    }

    /// Reads pasted lines until one is this sign-in's redirect.
    ///
    /// That is the redirect URI (scheme, host, port and path) with its `state`; another sign-in's `state` ends the
    /// sign-in as a failed security check.
    private func pastedRedirect(_ redirectURI: URL, state: String) async throws -> URL {
        let expected = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false)
        let deadline = ContinuousClock.now + .seconds(options.timeout)
        return try await withThrowingTaskGroup(of: URL?.self) { group in
            group.addTask {
                for await line in StandardInputLines.shared {
                    let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
                    guard !text.isEmpty else { continue }
                    guard let pasted = URLComponents(string: text), pasted.scheme != nil, pasted.host != nil else {
                        Output.message("That is not a web address; paste the full address the browser shows.")
                        continue
                    }
                    guard pasted.scheme?.lowercased() == expected?.scheme?.lowercased(),
                        pasted.host?.lowercased() == expected?.host?.lowercased(), pasted.port == expected?.port,
                        pasted.percentEncodedPath == expected?.percentEncodedPath
                    else {
                        Output.message(
                            "That address is not this sign-in's redirect, which starts with "
                                + "\(redirectURI.absoluteString)?. Paste it again, or press Ctrl-C to cancel."
                        )
                        continue
                    }
                    let states = (pasted.queryItems ?? []).filter { $0.name == "state" }.map(\.value)
                    guard states == [state] else {
                        throw OAuthError.invalidCallback(
                            "the pasted address belongs to another sign-in (its state is not this one's)"
                        )
                    }
                    return pasted.url
                }
                throw OAuthError.invalidCallback("standard input ended before the redirect's address was pasted")
            }
            group.addTask {
                try await Task.sleep(until: deadline)
                throw CLIFailure(
                    status: CLIFailure.failed,
                    message: "Sign-in timed out: no address was pasted within \(options.timeout) seconds. Start it "
                        + "again and approve in the browser."
                )
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let url = next { return url }
            }
            throw CancellationError()
        }
    }
}
