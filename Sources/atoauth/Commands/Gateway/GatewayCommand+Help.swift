extension GatewayCommand {
    /// What `atoauth gateway --help` says after the abstract.
    static let discussion = """
        For scripts and services in any language: they call http://127.0.0.1:8787/xrpc/<nsid> with plain \
        HTTP, and atoauth forwards each call to the account's PDS as `atoauth xrpc` would (DPoP proof, \
        nonces, refresh, permission checks) and passes the answer back, bodies streamed both ways. Keys and \
        tokens never leave atoauth. It runs in the foreground until SIGTERM or Ctrl-C.

        The token. Every request but GET /_gateway/health needs Authorization: Bearer <token>. A new random \
        token is made at each start and written alone on one line to --token-file (mode 0600; default \
        <home>/gateway-token) once the gateway listens. Only its path is printed, never the token. The file is \
        this gateway's while it runs (a lock on <file>.lock): a second gateway on it exits 1 naming the first \
        one's PID and address, and leaves the token alone. A clean stop removes it.

        The start-up token opens every account the store holds, unless --allow-account limits it (and every \
        other token of this gateway). Named tokens (atoauth gateway token create) lend less: some accounts \
        (403 AccountNotAllowed otherwise), some permissions (403 ScopeMissingError), for some time (401 \
        TokenExpired); every gateway on the same store honours them until revoked. No token may call \
        createSession, refreshSession, deleteSession, createAppPassword or revokeAppPassword (403 \
        MethodNotAllowed).

        The account. The atoauth-account header (a handle or DID; one not signed in here is refused, never \
        served as another), else the account the request's repo names, else --account, else the account \
        active at the time of the request.

        Headers. atproto-proxy, atproto-accept-labelers, Accept and other fields are passed on; \
        Authorization, DPoP, Cookie and hop-by-hop fields never are. A browser's request (Origin) and one for \
        another Host are refused. The answer keeps the PDS's status, Content-Type, Content-Length and \
        atproto-* and ratelimit-* fields.

        Errors are JSON, {"error":"<Name>","message":"..."}: AuthRequired (401), Forbidden (403), \
        AccountNotSignedIn (403), ScopeMissingError (403), SessionEnded (401), InvalidRequest (400), \
        PayloadTooLarge (413), Overloaded (503), UpstreamFailed (502), UpstreamInvalid (502: the PDS's status was \
        outside 200-599, or 101). GET /_gateway/metrics serves \
        Prometheus metrics.

        Prints `listening on http://127.0.0.1:PORT` (or `listening on unix:PATH`) on stdout once it listens, \
        and one log line per request on stderr. With --print-env it prints ATOAUTH_GATEWAY_URL=... and \
        ATOAUTH_GATEWAY_TOKEN_FILE=... lines instead, for a script to source or eval.

        Connections. A refused request's body is never read: the answer says Connection: close. A request \
        head, and a body received whole, must arrive within 10 seconds; at most --max-connections are open. On SIGTERM or Ctrl-C it stops accepting, lets the requests \
        in flight finish for up to --shutdown-grace seconds, and exits 0.

        Examples:
          atoauth gateway --account alice.bsky.social --print-env > gateway.env &
          set -a; . ./gateway.env; set +a    # once the two lines are there
          TOKEN=$(cat "$ATOAUTH_GATEWAY_TOKEN_FILE")
          curl -H "Authorization: Bearer $TOKEN" \\
            "$ATOAUTH_GATEWAY_URL/xrpc/com.atproto.server.getSession"
          curl -H "Authorization: Bearer $TOKEN" \\
            -H "atoauth-account: bob.bsky.social" \\
            -H "Content-Type: application/json" \\
            --data @record.json \\
            http://127.0.0.1:8787/xrpc/com.atproto.repo.createRecord
          atoauth gateway --socket /run/user/1000/atoauth.sock
          curl --unix-socket /run/user/1000/atoauth.sock \\
            -H "Authorization: Bearer $TOKEN" \\
            http://localhost/xrpc/com.atproto.server.getSession
        """
}
