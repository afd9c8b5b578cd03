import AccountManager
import ArgumentParser
import OAuthSessionManager
import WireFormat

/// `atoauth accounts remove`.
struct RemoveCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Sign an account out: revoke its tokens, then delete its session and DPoP key.",
        discussion: """
            Revocation is best effort: when the authorization server cannot be reached, the account is removed \
            here anyway and atoauth says so. A session that cannot be read (see `atoauth accounts list`) is \
            deleted with its DPoP key by DID, without revocation. With --json, one object with did, handle and \
            revocation.

            Example:
              atoauth accounts remove alice.bsky.social
            """
    )

    /// Revocation goes to the stored revocation endpoint, which may be a development server on loopback.
    static let globalOptions = GlobalOption.store.union([.allowHTTPLoopback])

    @Argument(help: ArgumentHelp("The account's handle or DID.", valueName: "handle-or-did"))
    var account: String

    @OptionGroup var global: GlobalOptions<Self>
    func run() async throws {
        let outcome = try await CLIContext.run(global) { context -> Outcome in
            if let unreadable = try await context.accounts.removeUnreadable(account) {
                return .unreadable(unreadable)
            }
            let (removed, revocation) = try await context.accounts.revoke(account)
            return .revoked(removed, revocation)
        }
        switch outcome {
        case .unreadable(let session): try reportUnreadable(session)
        case .revoked(let removed, let revocation): try report(removed, revocation: revocation)
        }
    }

    private func report(_ removed: Account, revocation: OAuthSessionManager.RevocationResult) throws {
        let revoked: String
        switch revocation {
        case .revoked: revoked = "revoked"
        case .notSupported: revoked = "not supported by the server"
        case .failed(let reason):
            revoked = "failed"
            Output.message(
                "Removed here, but the authorization server did not confirm the revocation. \(Sentence.ended(reason))"
            )
        }
        if global.json {
            try Output.json(["did": removed.did.rawValue, "handle": removed.handle?.description, "revocation": revoked])
        } else {
            Output.line("Removed \(removed.displayName) (\(removed.did)); revocation: \(revoked).")
        }
    }

    private enum Outcome {
        case revoked(Account, OAuthSessionManager.RevocationResult)
        case unreadable(UnreadableSession)
    }

    private func reportUnreadable(_ session: UnreadableSession) throws {
        let note = "its tokens could not be read, so they were not revoked"
        if global.json {
            try Output.json(["did": session.did.rawValue, "handle": nil, "revocation": "not possible"])
        } else {
            Output.line("Removed the unreadable session of \(session.did) and its DPoP key; \(note).")
        }
    }
}
