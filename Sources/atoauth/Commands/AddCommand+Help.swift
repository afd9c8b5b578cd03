extension AddCommand {
    /// What `--help` says after the abstract.
    static let discussion = """
        Starts a listener on http://127.0.0.1:<port>/callback, sends a pushed authorization request, and opens \
        the authorization page: with `$BROWSER <url>` when BROWSER is set, else xdg-open (or open on macOS). \
        The URL is always printed on stderr. After you approve, the redirect is checked, the code exchanged, \
        the account verified and its session stored encrypted. On a terminal, one line shows until when it \
        waits. Ctrl-C cancels and leaves nothing behind.

        Over SSH or in a container, use --no-browser and open the URL in a browser on any machine. That \
        browser ends on an unreachable http://127.0.0.1:<port>/callback?… page: paste its full address here \
        and press Enter (a terminal does not echo it). It passes the same checks as the redirect: another \
        address gets a message and you may paste again; another sign-in's state fails as a security check \
        (exit 4). When the browser cannot be opened, atoauth says so and takes a pasted address the same \
        way. The redirect to the listener is accepted meanwhile; the first to arrive wins.

        --create-account signs up: given a server's address (https://…), it asks that server's authorization \
        server for its sign-up page (prompt=create), then signs the new account in; a server that does not list \
        create in prompt_values_supported is told apart before anything is sent. --prompt login|consent| \
        select_account passes the other prompt values on (OpenID Connect), for example to choose among the \
        accounts signed in at the server.

        Signing in to an account that already has a session here replaces it and revokes the old grant at \
        its authorization server (best effort; reported on stderr, and as previousSession with --json).

        With --app-password, signs in the legacy way instead (com.atproto.server.createSession), for a handle \
        or DID: the password comes from ATOAUTH_APP_PASSWORD or one line on stdin (not echoed on a terminal), \
        never from the command line. When the server asks for a two-factor sign-in code \
        (AuthFactorTokenRequired), it comes from ATOAUTH_AUTH_FACTOR or the next line on stdin. The account \
        is checked as for OAuth, the password is not stored, and the session's JWTs are stored encrypted; \
        `atoauth accounts upgrade` moves it to OAuth later. An account signed in here with OAuth keeps that \
        session unless --replace is given, since an app-password session is not limited to the permissions \
        granted; the refusal comes before any password is asked for or sent.

        With --client-key, signs the account in as a confidential client (private_key_jwt), for a service or \
        a bot whose sessions must last: --client-id names the service's web client metadata document, and \
        --client-key a private key file (a JWK or PEM, added to the store's key set) or the kid of a key \
        already there (see `atoauth client keygen`), which the document must publish. The browser ends on the \
        service's own https redirect page (--redirect-uri when the document lists several, such as a page that \
        only shows its address): paste that address here. Every request to the authorization server then \
        carries a new assertion signed by that key, and the session stays bound to it (`accounts status` \
        shows it).

        Examples:
          atoauth accounts add alice.bsky.social
          atoauth accounts add did:plc:ewvi7nxzyoun6zhxrhs64oiz \\
            --scope "atproto transition:generic"
          atoauth accounts add https://bsky.social --no-browser
          atoauth accounts add alice.bsky.social --scope \\
            "atproto repo:app.bsky.feed.post blob:image/*"
          ATOAUTH_APP_PASSWORD=xxxx-xxxx-xxxx-xxxx \\
            atoauth accounts add alice.bsky.social --app-password
          atoauth accounts add https://pds.example.com --create-account
          atoauth accounts add alice.bsky.social --prompt select_account
          atoauth accounts add bot.example.com --client-key client-key.jwk \\
            --client-id https://bot.example.com/client-metadata.json

        Ask for exactly the permissions the work needs (atproto.com/specs/permission): repo:<collection> \
        with ?action=create|update|delete, blob:<mime pattern>, rpc:<method>?aud=<did>#<service>, \
        account:email|repo, identity:handle|*, include:<permission set>, or the broad transition:generic. \
        When the server grants less than asked, a warning names what is missing.
        """
}
