extension GatewayTokenCreateCommand {
    /// What `--help` says after the abstract.
    static let discussion = """
        The token is printed alone on one line of stdout (with --json, one object with name, token, accounts \
        (DIDs), scope (null when unrestricted) and expires (RFC 3339, or null)); it is never shown again and \
        the store keeps only its hash. Send it to any gateway on this store as Authorization: Bearer <token>.

        --account limits it to those accounts (with one, that account is the default; with several, a request \
        naming none goes out as the active account when it is one of them). --scope limits it to the calls \
        those permissions cover, by the rules the permission check applies to a session's grant; the \
        session's own grant still applies. --expires takes 8s, 90m, 1h or 7d. A name that exists already is \
        a usage error (exit 2).

        Examples:
          atoauth gateway token create ci-post --account bot.bsky.social \\
            --scope 'repo:app.bsky.feed.post?action=create' --expires 1h
          atoauth gateway token create reader \\
            --scope 'rpc:app.bsky.feed.getTimeline?aud=*' --json
        """
}
