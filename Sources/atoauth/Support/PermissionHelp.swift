/// What the CLI says about permission scopes when one is wrong or missing.
enum PermissionHelp {
    /// Examples of valid permissions, for error messages.
    static let examples =
        "Permissions look like repo:app.bsky.feed.post?action=create, blob:image/*, "
        + "rpc:app.bsky.actor.getProfile?aud=did:web:api.bsky.app%23bsky_appview or transition:generic "
        + "(atproto.com/specs/permission)."
}
