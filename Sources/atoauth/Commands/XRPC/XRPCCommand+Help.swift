extension XRPCCommand {
    /// What `--help` says after the abstract.
    static let discussion = """
        A query (GET, with the name=value pairs as query parameters) unless --input or --post is given; then \
        a procedure (POST) with the body from --input. Prints the answer on stdout: indented JSON, or one \
        line with --json, or the bytes as received with --raw (on a terminal, bytes that would drive it are \
        shown made safe). An XRPC error answer is printed on stderr and \
        exits 1; a call the session's permissions do not allow exits 3 with the command to sign in again.

        --input takes inline JSON, @FILE or - (standard input, read as bytes). The body is sent as \
        --content-type when given; else as application/json when it is JSON; else as the type the file's \
        extension implies (.png, .jpg, .webp, .gif, .mp4, …); else as application/octet-stream.

        --paginate follows the cursor of a query until a page has none, printing each page; with --json the \
        pages are merged into one object whose arrays hold every page's items. It stops with exit 1 when the \
        server repeats a cursor, or after --max-pages pages (then it names the cursor to continue from).

        app.bsky.* and chat.bsky.* methods go through the PDS to the Bluesky services (atproto-proxy); \
        --proxy DID#SERVICE names another service. --header (or -H) NAME:VALUE adds a field, but not one atoauth \
        sets itself (Authorization, DPoP, Host, Content-Length; Content-Type comes from --content-type). \
        The call goes out as --account when given, else as the \
        account its repo (a repo=... parameter or a "repo" member of the JSON body) names when that account \
        is signed in here, else as the active account; -v says which.

        Examples:
          atoauth xrpc com.atproto.server.getSession
          atoauth xrpc app.bsky.actor.getProfile \\
            actor=alice.bsky.social
          atoauth xrpc com.atproto.repo.listRecords \\
            repo=alice.bsky.social \\
            collection=app.bsky.feed.post --paginate --json
          atoauth xrpc com.atproto.repo.createRecord \\
            --input @record.json
          atoauth xrpc com.atproto.repo.uploadBlob \\
            --input @photo.png
          atoauth xrpc app.bsky.feed.getFeed \\
            feed=at://did:plc:…/app.bsky.feed.generator/x \\
            --header atproto-accept-labelers:did:plc:…
          atoauth xrpc com.atproto.sync.getBlob did=… cid=… \\
            --raw > blob.bin
        """
}
