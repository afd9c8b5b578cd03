import WireFormat

/// The HTML of the authorization page: who asks, for which account and scope, with Approve and Deny.
///
/// The form posts back to `/oauth/authorize` with a CSRF token that names this one interaction. The approve
/// button has `id="approve"` so browser tests can click it.
enum ConsentPage {
    /// The consent page for a pushed request.
    static func page(
        request: PushedAuthorization,
        accounts: [SandboxAccount],
        csrfToken: String
    ) -> String {
        let hinted = request.loginHintDID.flatMap { did in accounts.first { $0.did == did } }
        let accountField: String
        if let hinted {
            accountField = """
                <p>Account: <strong>\(HTMLText.escaped(hinted.handle))</strong> (\(HTMLText.escaped(hinted.did)))</p>
                <input type="hidden" name="account" value="\(HTMLText.escaped(hinted.did))">
                """
        } else {
            let options = accounts.map {
                "<option value=\"\(HTMLText.escaped($0.did))\">\(HTMLText.escaped($0.handle))</option>"
            }
            accountField = """
                <p><label for="account">Account:</label>
                <select id="account" name="account">\(options.joined())</select></p>
                """
        }
        let scopes = request.scope.split(separator: " ").map { "<li><code>\(HTMLText.escaped(String($0)))</code></li>" }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Authorize – atoauth sandbox</title>
            <style>body{font-family:system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em}
            button{font-size:1em;padding:.5em 1.5em;margin-right:1em}</style></head>
            <body><h1>Authorize access</h1>
            <p>The application <code>\(HTMLText.escaped(request.clientID))</code> asks to use your account.</p>
            <form method="post" action="/oauth/authorize">
            <input type="hidden" name="csrf_token" value="\(HTMLText.escaped(csrfToken))">
            \(accountField)
            <p>It asks for:</p><ul>\(scopes.joined())</ul>
            <p>It will be sent back to <code>\(HTMLText.escaped(request.redirectURI))</code>.</p>
            <button type="submit" id="approve" name="decision" value="approve">Approve</button>
            <button type="submit" id="deny" name="decision" value="deny">Deny</button>
            </form>
            <p><small>atoauth sandbox: a local development server; nothing here is real.</small></p>
            </body></html>
            """
    }

    /// A page that explains why the authorization request cannot go on (it is not sent back to the client,
    /// because its redirect URI cannot be trusted).
    static func errorPage(_ message: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>Authorization error – atoauth sandbox</title></head>
        <body><h1>Authorization error</h1><p>\(HTMLText.escaped(message))</p></body></html>
        """
    }
}
