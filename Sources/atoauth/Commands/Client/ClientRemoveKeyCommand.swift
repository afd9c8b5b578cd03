import ATProtoSyntax
import AccountManager
import ArgumentParser
import OAuthMetadata
import OAuthSessionManager
import WireFormat

/// `atoauth client remove-key`.
struct ClientRemoveKeyCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "remove-key",
        abstract: "Remove a client key from the store, once no session is bound to it.",
        discussion: """
            A key must stay published while sessions use it: the authorization server ends every session whose \
            key leaves the client's published set. So removing a key that sessions signed in here are bound to \
            is refused (exit 2), naming how many, unless --force: then those sessions are signed out (revoked, \
            best effort) and end here too, and each such account's next command says that its session ended \
            because this key was removed, and how to sign it in again as the same client (exit 3), until it is \
            signed in again or `atoauth accounts remove` forgets it. After removing the key, publish the client \
            metadata without it (`atoauth client metadata` writes the store's remaining keys).

            With --json, one object: {"kid", "state", "endedSessions": [{"did", "handle"}]}.

            Examples:
              atoauth client keys
              atoauth client remove-key 0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I
              atoauth client remove-key <kid> --force
            """
    )

    /// With `--force`, the sessions bound to the key are revoked at their authorization servers, which may be
    /// development servers on loopback.
    static let globalOptions = GlobalOption.store.union([.allowHTTPLoopback, .requestTimeout])

    // A kid is a base64url thumbprint, which may begin with "-": taken as the argument, never as an option. A
    // thumbprint whose letters include an option's (`-xh…` holds -h) is moved behind `--` before parsing
    // (GlobalOptionPlacement); another kid must follow `--`, which ends the options as everywhere.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "The key's kid, as `atoauth client keys` lists it; a kid not made by atoauth that begins with - goes after --.",
            valueName: "kid"
        )
    )
    var arguments: [String] = []

    /// The kids given, after a `--` that ends the options.
    var kids: [String] { arguments.first == "--" ? Array(arguments.dropFirst()) : arguments }

    /// The one kid given.
    var kid: String { kids.first ?? "" }

    @Flag(name: .long, help: "Remove the key even though sessions use it: they are signed out and end here too.")
    var force = false

    @OptionGroup var global: GlobalOptions<Self>

    func validate() throws {
        guard kids.count == 1 else {
            throw ValidationError(
                kids.isEmpty
                    ? "Name the key to remove by its kid (atoauth client keys lists them)."
                    : "Name one key to remove, not \(kids.count): \(kids.joined(separator: " "))."
            )
        }
    }

    func run() async throws {
        let (state, ended) = try await CLIContext.run(global) { context in
            let keys = try await context.accounts.clientKeys()
            let state = keys.first { $0.record.keyID == kid }?.record.state
            let ended = try await context.accounts.removeClientKey(kid, force: force)
            return (state, ended)
        }
        let removed = RemovedKeyJSON(
            kid: kid,
            state: state?.rawValue,
            endedSessions: ended.map {
                RemovedKeyJSON.EndedSession(did: $0.did.rawValue, handle: $0.handle?.description)
            }
        )
        let endedLines = ended.map {
            "\nEnded the session of \($0.displayName) (\($0.did)); sign it in again as this client with another key."
        }
        try Output.result(
            removed,
            json: global.json,
            text: "Removed the client key \(kid) from the store." + endedLines.joined()
        )
        var advice = "Publish the client metadata without it: `atoauth client metadata` writes the keys left."
        if state == .current {
            advice +=
                " It was the current key: new sign-ins need another, a next key once its wait has passed "
                + "(`atoauth client keys`), or a new one (`atoauth client keygen`)."
        }
        Output.message(advice)
    }
}

/// The JSON answer of `client remove-key`.
struct RemovedKeyJSON: Encodable {
    /// An account whose session ended with the key.
    struct EndedSession: Encodable {
        var did: String
        @NullWhenAbsent var handle: String? = nil
    }

    var kid: String
    /// The key's state when it was removed.
    var state: String?
    var endedSessions: [EndedSession]
}
