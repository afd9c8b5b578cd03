import ATProtoPermissions
import WireFormat

/// The HTML of the authorization pages: who asks, for which account and which permissions, with Approve and Deny;
/// and the pages that say why a request cannot go on.
///
/// The form posts back to `/oauth/authorize` with a CSRF token that names this one interaction. The buttons have
/// `id="approve"` and `id="deny"` so browser tests can click them. Every value that came from a client (its
/// `client_id`, its document's name and addresses, its redirect URI) is escaped; the name and addresses are shown
/// only once ``ClientPresentation`` checked them.
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
        return document(
            title: "Authorize",
            body: """
                <h1>Authorize access</h1>
                \(clientIntroduction(request, asks: "asks to use your account."))
                <form method="post" action="/oauth/authorize">
                <input type="hidden" name="csrf_token" value="\(HTMLText.escaped(csrfToken))">
                \(accountField)
                <p>Permissions it asks for:</p>\(permissionList(request.scope))
                <p>It will be sent back to <code>\(HTMLText.escaped(request.redirectURI))</code>.</p>
                <button type="submit" id="approve" name="decision" value="approve">Approve</button>
                <button type="submit" id="deny" name="decision" value="deny">Deny</button>
                </form>
                """
        )
    }

    /// Who asks, in a sentence that `asks` ends.
    ///
    /// The client's logo and name from its document when they passed the checks, with its `client_id` small beside
    /// them; the `client_id` alone for the loopback client.
    static func clientIntroduction(_ request: PushedAuthorization, asks: String) -> String {
        let client = request.clientPresentation
        let clientID = "<code>\(HTMLText.escaped(request.clientID))</code>"
        let logo = client.logoURI.map {
            #"<img class="logo" src="\#(HTMLText.escaped($0))" alt="" width="48" height="48" "#
                + #"referrerpolicy="no-referrer">"#
        }
        guard let name = client.name else { return "<p>\(logo ?? "")The application \(clientID) \(asks)</p>" }
        return """
            <p>\(logo ?? "")The application <strong id="client-name">\(HTMLText.escaped(name))</strong> \(asks)<br>
            <small>Client ID: \(clientID)</small></p>
            """
    }

    /// The requested permissions, each in words with its scope token small beside it (atproto.com/specs/permission).
    static func permissionList(_ scope: String) -> String {
        let items = ScopeSet(granted: scope).tokens.map { token in
            "<li>\(HTMLText.escaped(PermissionWords.text(token))) "
                + "<small><code>\(HTMLText.escaped(token.description))</code></small></li>"
        }
        return #"<ul class="permissions">\#(items.joined())</ul>"#
    }

    /// A page that explains why the authorization request cannot go on (it is not sent back to the client,
    /// because its redirect URI cannot be trusted).
    static func errorPage(_ message: String) -> String {
        document(title: "Authorization error", body: "<h1>Authorization error</h1><p>\(HTMLText.escaped(message))</p>")
    }

    /// A whole page of the sandbox: `title` (plain text, escaped here) and `body` (HTML).
    static func document(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
        <title>\(HTMLText.escaped(title)) – atoauth sandbox</title>
        <style>body{font-family:system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em}
        button{font-size:1em;padding:.5em 1.5em;margin-right:1em}
        .logo{float:left;margin:0 .75em .5em 0;object-fit:contain}
        .permissions li{margin:.25em 0}</style></head>
        <body>\(body)
        <p><small>atoauth sandbox: a local development server; nothing here is real.</small></p>
        </body></html>
        """
    }
}
