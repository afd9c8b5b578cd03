import ATProtoSyntax
import AccountManager
import ArgumentParser
import Failures
import OAuthSessionManager
import WireFormat

/// `atoauth accounts remove`.
struct RemoveCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Sign an account out: revoke its tokens, then delete its session and DPoP key.",
        discussion: """
            Revocation is best effort: when the authorization server cannot be reached, the account is removed \
            here anyway and atoauth says so. An app-password session is ended at its PDS instead \
            (com.atproto.server.deleteSession), best effort the same way. A session that cannot be read (see `atoauth accounts list`) is \
            deleted with its DPoP key by DID, without revocation.

            Removing the active account makes the remaining account you signed in to most recently the active \
            one (on a tie, the first by handle), and says which; when no account remains, none is active. With \
            --json the answer has `did`, `handle`, `revocation`, `active` (whether the removed account was the \
            active one, as in `accounts list --json`), `activeAccount` (the active account afterwards, or null) \
            and `activeChanged`.

            Also `atoauth accounts rm` and `atoauth accounts logout`.

            Example:
              atoauth accounts remove alice.bsky.social
            """,
        aliases: ["rm", "logout"]
    )

    /// Revocation goes to the stored revocation endpoint, which may be a development server on loopback.
    static let globalOptions = GlobalOption.store.union([.allowHTTPLoopback, .requestTimeout])

    @Argument(
        help: ArgumentHelp("The account's handle or DID.", valueName: "handle-or-did"),
        completion: AccountCompletion.signedIn
    )
    var account: AccountArgument

    @OptionGroup var global: GlobalOptions<Self>

    func run() async throws {
        let (removal, active) = try await CLIContext.run(global) { context in
            let removal: AccountRemoval
            do {
                removal = try await context.accounts.remove(try account.identifier())
            } catch let error as AccountError where error.code == .noSuchAccount {
                throw await AccountSuggestion.failure(for: error, context: context, removing: true)
            }
            switch removal.active {
            case .switched(let successor): return (removal, Optional(successor))
            case .noneActive: return (removal, nil)
            case .unchanged: return (removal, try? await context.accounts.activeAccount())
            }
        }
        var json: RemovalJSON
        switch removal.removed {
        case .account(let removed, let revocation):
            if case .failed(let reason) = revocation {
                let server =
                    removed.kind == .appPassword
                    ? "the PDS did not confirm ending the app-password session (com.atproto.server.deleteSession)"
                    : "the authorization server did not confirm the revocation"
                Output.message(
                    "Removed here, but \(server). " + Sentence.ended(reason) + " " + Self.stillValid(removed)
                )
            }
            json = RemovalJSON(removed, revocation: RevocationText.word(revocation), active: active)
            if !global.json {
                Output.line("Removed \(removed.displayName) (\(removed.did)); revocation: \(json.revocation).")
            }
        case .unreadable(let session):
            json = RemovalJSON(session, active: active)
            if !global.json {
                Output.line(
                    "Removed the unreadable session of \(session.did) and its DPoP key; its tokens could not be "
                        + "read, so they were not revoked."
                )
            }
        }
        json.activeChanged = removal.active != .unchanged
        json.active = json.activeChanged
        if global.json {
            try Output.json(json)
            return
        }
        switch removal.active {
        case .unchanged: break
        case .switched(let successor):
            Output.line("\(successor.displayName) (\(successor.did)) is the active account now.")
        case .noneActive:
            Output.line("No account is signed in now, so none is active; sign in with `atoauth accounts add <handle>`.")
        }
    }
}

/// The JSON answer of `accounts remove`: the removed account, the revocation, and the active account afterwards.
///
/// `active` means what it means in every account object (`accounts list --json`): whether this object's account,
/// the removed one, was the active account. It used to hold the active account afterwards, which `activeAccount`
/// holds now (docs/cli.md, `accounts remove`).
struct RemovalJSON: Encodable {
    var did: String
    @NullWhenAbsent var handle: String? = nil
    /// `revoked`, `not supported by the server`, `failed`, or `not possible` for an unreadable session.
    var revocation: String
    /// Whether the removed account was the active one.
    var active = false
    /// The active account after the removal; `null` when none is.
    @NullWhenAbsent var activeAccount: AccountReferenceJSON? = nil
    /// Whether the removal changed the active account.
    var activeChanged = false

    init(_ removed: Account, revocation: String, active: Account?) {
        did = removed.did.rawValue
        handle = removed.handle?.description
        self.revocation = revocation
        activeAccount = active.map(AccountReferenceJSON.init)
    }

    init(_ session: UnreadableSession, active: Account?) {
        did = session.did.rawValue
        revocation = "not possible"
        activeAccount = active.map(AccountReferenceJSON.init)
    }
}

extension RemoveCommand {
    /// What a failed revocation leaves behind, and where the user can end it by hand.
    static func stillValid(_ account: Account) -> String {
        switch account.kind {
        case .appPassword:
            "The session stays valid until it expires; to end it now, delete the app password in the account's "
                + "settings (App Passwords)."
        case .oauth:
            "Its tokens stay valid until they expire; to end them now, revoke this app's access in the account's "
                + "settings at \(account.issuer)."
        }
    }
}
