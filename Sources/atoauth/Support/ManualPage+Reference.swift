extension ManualPage {
    /// A term and what it means: an exit status, a variable or a file.
    typealias Entry = (term: String, text: String)

    /// The exit statuses of docs/cli.md, "Exit status and errors".
    static let exitStatuses: [Entry] = [
        ("0", "Success."),
        ("1", "The operation failed (network, server error, XRPC error answer); `error` is `failed` with --json."),
        ("2", "Usage error: a command, option or value that is not understood, or one that does not apply; `usage`."),
        (
            "3",
            "Sign-in needed: no such account, the session expired or was revoked, or it lacks a permission the call "
                + "needs; the message gives the command that signs it in again; `sign_in_needed`."
        ),
        (
            "4",
            "A security check failed (state, iss, issuer, sub, metadata, DPoP); nothing was stored; "
                + "`security_check_failed`."
        ),
        (
            "130",
            "Interrupted (Ctrl-C), by any command but gateway (which stops and exits 0); nothing half-written is left "
                + "behind; `cancelled`."
        ),
        (
            "141",
            "The reader of stdout or stderr went away (`atoauth demo | head -2`): the command stops at once and prints "
                + "nothing more, as coreutils end by SIGPIPE."
        ),
    ]

    /// The variables atoauth reads (docs/cli.md, "Environment variables"); an empty value counts as unset.
    static let environment: [Entry] = [
        ("ATOAUTH_HOME", "--home: the store directory."),
        ("ATOAUTH_STORE", "--store: a postgresql:// URL of a store shared by several machines."),
        ("ATOAUTH_ACCOUNT", "--account: act as this account for one command, without switching."),
        ("ATOAUTH_PLC_DIRECTORY", "--plc-directory: where did:plc documents are fetched."),
        ("ATOAUTH_HANDLE_RESOLVER", "--handle-resolver: resolve handles with this service."),
        ("ATOAUTH_ALLOW_HTTP_LOOPBACK", "1 turns --allow-http-loopback on (development only)."),
        ("ATOAUTH_CLIENT_ID", "--client-id: sign in as the client this hosted metadata document describes."),
        ("ATOAUTH_REQUEST_TIMEOUT", "--request-timeout: how long one HTTP request may take, in seconds."),
        ("ATOAUTH_VERBOSE", "1 turns -v on."),
        (
            "ATOAUTH_PASSPHRASE",
            "Derive the store key from this passphrase (Argon2id) instead of using a key file. Without it, a store "
                + "made with a passphrase asks for it on a terminal."
        ),
        ("ATOAUTH_KEY_FILE", "The store's key file, when no passphrase is set."),
        (
            "ATOAUTH_APP_PASSWORD",
            "The app password for accounts add --app-password (else one line on stdin); removed from the environment "
                + "once read."
        ),
        (
            "ATOAUTH_AUTH_FACTOR",
            "The two-factor sign-in code, when the PDS asks for one (else the next line on stdin); removed from the "
                + "environment once read."
        ),
        (
            "BROWSER",
            "The command that opens the authorization URL for accounts add and accounts upgrade (`$BROWSER <url>`, "
                + "run by /bin/sh); else xdg-open (open on macOS). It gets the environment without the secrets."
        ),
        ("HOME", "The default store directory and key file are under it."),
        ("XDG_DATA_HOME", "The default store directory is $XDG_DATA_HOME/atoauth (an absolute path only)."),
        ("XDG_CONFIG_HOME", "The default key file is $XDG_CONFIG_HOME/atoauth/store.key (an absolute path only)."),
        ("PGPASSWORD", "The PostgreSQL store's password, when the --store URL has none."),
        (
            "PGPASSFILE",
            "The PostgreSQL password file, when neither the URL nor PGPASSWORD gives a password (default ~/.pgpass)."
        ),
        (
            "COLUMNS",
            "The width help, usage and, on a terminal, messages are laid out for (at least 40); else the terminal's."
        ),
    ]

    /// The files atoauth keeps or reads (docs/cli.md, "The store and its secret" and `gateway`).
    static let files: [Entry] = [
        (
            "~/.local/share/atoauth/",
            "The store directory (mode 0700): --home, else ATOAUTH_HOME, else $XDG_DATA_HOME/atoauth. It holds "
                + "keystore.json (the format, the key derivation and a key check), one sealed *.entry file per entry (a "
                + "session, a DPoP key…), the lock files keystore.lock and locks/ (one refresh per account "
                + "across processes), and dpop-nonces.json, the DPoP nonce cache. With a PostgreSQL --store, only the "
                + "nonce cache."
        ),
        (
            "~/.config/atoauth/store.key",
            "The random store key (mode 0600, in a 0700 directory), made when a store is first used without a "
                + "passphrase: ATOAUTH_KEY_FILE, else $XDG_CONFIG_HOME/atoauth/store.key. One that group or others may "
                + "read is refused."
        ),
        (
            "<home>/gateway-token",
            "The gateway's start-up token (mode 0600; --token-file), written once it listens and removed when it "
                + "stops, with gateway-token.lock, held while it runs."
        ),
        ("<home>/gateway-spool/", "Large request bodies the gateway keeps while it forwards them (mode 0700)."),
        ("~/.pgpass", "The libpq password file of a PostgreSQL store (PGPASSFILE), mode 0600."),
    ]

    /// What the examples show, and their command lines.
    static let examples: [Entry] = [
        ("Sign in in the browser, and see who you are:", "atoauth accounts add alice.bsky.social\natoauth whoami"),
        ("Over SSH, paste the browser's final address instead:", "atoauth accounts add alice.bsky.social --no-browser"),
        ("The signed-in accounts; * marks the active one:", "atoauth accounts list"),
        (
            "Call XRPC methods; a file's type is sent with it:",
            "atoauth xrpc app.bsky.actor.getProfile actor=alice.bsky.social\n"
                + "atoauth xrpc com.atproto.repo.uploadBlob --input @photo.png"
        ),
        (
            "Lend the accounts to scripts in any language over local HTTP:",
            "atoauth gateway --account alice.bsky.social"
        ),
        (
            "A gateway token for a CI job that may only post, as one account, for an hour:",
            "atoauth gateway token create ci --account bot.bsky.social \\\n"
                + "  --scope 'repo:app.bsky.feed.post?action=create' --expires 1h"
        ),
        ("Why a sign-in fails, step by step:", "atoauth doctor alice.bsky.social"),
        (
            "A script that goes by the exit status:",
            "atoauth whoami --json > me.json\ncase $? in\n  0) jq -r .handle me.json ;;\n"
                + "  3) echo \"sign in again\" ;;\n  *) echo \"failed\" ;;\nesac"
        ),
        ("A strict local PDS and authorization server for development:", "atoauth sandbox --auto-approve"),
    ]

    /// EXIT STATUS, ENVIRONMENT, FILES, EXAMPLES and SEE ALSO.
    static var reference: [String] {
        func items(_ entries: [Entry]) -> [String] {
            entries.flatMap { [".TP", Roff.bold($0.term), Roff.line($0.text)] }
        }
        var lines = [".SH EXIT STATUS"] + items(exitStatuses)
        lines += [
            ".PP",
            Roff.line(
                "With --json, an error is one JSON object on stderr: `{\"error\": \"<code>\", \"exit\": N, "
                    + "\"message\": \"...\"}`, plus `status` and `xrpcError` for an XRPC error answer."
            ),
            ".SH ENVIRONMENT",
            Roff.line(
                "An empty value counts as unset. The variables of the global options are read only by the commands "
                    + "that take the option."
            ),
        ]
        lines += items(environment)
        lines += [".SH FILES"] + items(files)
        lines.append(".SH EXAMPLES")
        for example in examples {
            lines += [".PP", Roff.line(example.term)] + Roff.example(example.text.split(separator: "\n"))
        }
        lines += [
            ".SH SEE ALSO",
            Roff.line(
                "The full reference, docs/cli.md; every failure a user meets, docs/errors.md; and the guides, "
                    + "docs/guides/, in the atoauth repository."
            ),
            ".PP",
            ".BR xdg\\-open (1),",
            ".BR jq (1),",
            ".BR curl (1)",
        ]
        return lines
    }
}
