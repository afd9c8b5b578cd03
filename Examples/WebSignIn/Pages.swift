import ATClient
import Hummingbird
import HummingbirdCore
import NIOCore
import WireFormat

/// The service's HTML: the sign-in form, the signed-in page and the error page, every inserted text escaped.
enum Pages {
    /// The page for a browser that is not signed in: a handle field and "Sign in with Bluesky".
    static func signedOut(notice: String? = nil) -> String {
        let noticeHTML = notice.map { "<p id=\"notice\">\(HTMLText.escaped($0))</p>" } ?? ""
        return page(
            title: "Sign in",
            """
            \(noticeHTML)
            <form method="post" action="/login">
            <p><label for="handle">Your handle</label><br>
            <input id="handle" name="handle" placeholder="alice.bsky.social" autocomplete="username" required></p>
            <button type="submit" id="sign-in">Sign in with Bluesky</button>
            </form>
            """
        )
    }

    /// The page for a signed-in browser: who it is, what one XRPC call made as that account answered, and
    /// "Sign out".
    static func signedIn(as name: String, answer: SessionInfo) -> String {
        page(
            title: "Signed in",
            """
            <p>Signed in as <strong id="account">\(HTMLText.escaped(name))</strong></p>
            <p>Its PDS answered <code>com.atproto.server.getSession</code>, called with the account's DPoP-bound \
            access token:</p>
            <dl><dt>DID</dt><dd><code id="did">\(HTMLText.escaped(answer.did))</code></dd>
            <dt>Handle</dt><dd>\(HTMLText.escaped(answer.handle))</dd></dl>
            <form method="post" action="/logout"><button type="submit" id="sign-out">Sign out</button></form>
            """
        )
    }

    /// A page that says what went wrong, and links back to the start.
    static func error(_ title: String, _ message: String) -> String {
        page(
            title: title,
            """
            <h2 id="error">\(HTMLText.escaped(title))</h2>
            <p>\(HTMLText.escaped(message))</p>
            <p><a href="/">Back</a></p>
            """
        )
    }

    /// An HTML answer.
    static func response(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html))
        )
    }

    /// A `303 See Other` to `location`: the browser follows it with a GET.
    static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    private static func page(title: String, _ body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(HTMLText.escaped(title)) – atoauth web example</title>
        <style>body{font-family:system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em}
        button{font-size:1em;padding:.5em 1.5em}</style></head>
        <body><h1>atoauth web example</h1>
        \(body)
        </body></html>
        """
    }
}
