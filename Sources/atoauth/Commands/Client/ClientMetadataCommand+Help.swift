extension ClientMetadataCommand {
    /// What `--help` says after the abstract.
    static let discussion = """
        --client-id (or ATOAUTH_CLIENT_ID) is the https URL the document will be served at, its client_id. \
        The document is a confidential web client's: application_type web, grant_types authorization_code \
        and refresh_token, response_types code, token_endpoint_auth_method private_key_jwt, \
        token_endpoint_auth_signing_alg ES256, dpop_bound_access_tokens true, the scope and the redirect \
        URIs, client_name and client_uri when given, and the public keys: inline (jwks) from the store by \
        default, every key it holds (next, current and retiring: each must stay published), or from a key \
        set file with --jwks; or where they are published, with --jwks-uri. --copy-address-uri adds the \
        redirect URI of a static https page that only shows its own address, for signing in from a \
        terminal. With --native (or --public), a native app's public client document instead: \
        application_type native, token_endpoint_auth_method none, no keys, and http://127.0.0.1/callback \
        when no --redirect-uri is given.

        The document is checked as `atoauth client check` does before it is written: a problem is listed on \
        stderr and nothing is written (exit 1). stdout gets the document, pretty-printed with sorted keys, \
        unless --out names the file (mode 0644: it is public). With --json, one object: {"clientID", "kind", \
        "file", "keys", "document"}.

        Examples:
          atoauth client metadata \\
            --client-id https://app.example.com/client-metadata.json \\
            --redirect-uri https://app.example.com/callback \\
            --name "Example app" --out client-metadata.json
          atoauth client metadata \\
            --client-id https://app.example.com/client-metadata.json \\
            --redirect-uri https://app.example.com/callback \\
            --jwks-uri https://app.example.com/jwks.json
          atoauth client metadata --native \\
            --client-id https://app.example.com/client-metadata.json
        """
}
