extension StatusCommand {
    /// What `--help` says after the abstract.
    static let discussion = """
        Reads the stored session only; nothing is sent, unless --check asks the PDS. Without an account, shows \
        the active one (or the one --account or ATOAUTH_ACCOUNT names); --all shows every account. With \
        --json, one object (an array with --all) with kind, did, handle, active, pds, issuer, scope, \
        permissions, notGranted, accessTokenExpiresAt, signedInAt, refreshedAt and sessionEndsAtLatest (a \
        public client's session lasts at most two weeks from sign-in; a confidential client's until the \
        earlier of two years from sign-in and its refresh token's expiry, three months after the last refresh \
        unless the server gave another, as at the reference server; an app-password session lasts until its \
        refresh token expires, and each refresh renews it), client and clientKeyID for an OAuth session, \
        plcDirectory and handleResolver when the account was signed in with a PLC directory or handle resolver \
        other than the defaults (its refreshes use them too, unless --plc-directory or --handle-resolver names \
        others), and `check` with --check.

        --check calls com.atproto.server.getSession with each session (refreshing it when due): `valid` when \
        the PDS accepts it, `ended` when the server ended it (it is then deleted here, and the exit status is \
        3), `failed` when the PDS could not be asked (exit 1).

        Examples:
          atoauth accounts status
          atoauth accounts status bob.bsky.social --json
          atoauth accounts status --all --check
        """
}
