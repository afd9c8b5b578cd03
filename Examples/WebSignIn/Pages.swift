import ATOAuth
import Hummingbird
import HummingbirdCore
import NIOCore
import WireFormat

/// The service's HTML: the sign-in form, the signed-in page, the error page and the "copy this address" page, every
/// inserted text escaped.
enum Pages {
    private typealias FieldName = HTTPFields.Element.Name

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

    /// The page an operator's sign-in from a terminal ends on, showing its own address to copy.
    ///
    /// `atoauth accounts add … --client-key … --redirect-uri <origin>/copy-address` sends the browser here. The
    /// page's script shows its address, with the code, `state` and `iss` the authorization server added, in a
    /// read-only field with a copy button, to paste into atoauth, which spends the code. It is static: it reads
    /// nothing but `location.href` and sends nothing anywhere.
    static let copyAddress = page(
        title: "Copy this address",
        """
        <h2>Copy this address</h2>
        <p>You are signing an account in from a terminal. Copy this page's full address and paste it where \
        <code>atoauth</code> asks for it: atoauth finishes the sign-in. This service does nothing with it.</p>
        <p><label for="address">This page's address</label><br>
        <textarea id="address" rows="5" readonly spellcheck="false" style="width:100%;font-family:monospace">\
        </textarea></p>
        <p><button type="button" id="copy">Copy the address</button> <span id="copied" role="status"></span></p>
        <noscript><p>Copy the address from the browser's address bar.</p></noscript>
        <script>
        (function () {
          'use strict';
          var field = document.getElementById('address');
          var status = document.getElementById('copied');
          // The address goes into this field and, on request, the clipboard: nowhere else.
          field.value = location.href;
          field.addEventListener('focus', function () { field.select(); });
          function copied(done) {
            status.textContent = done ? 'Copied.' : 'Select the address and copy it.';
          }
          document.getElementById('copy').addEventListener('click', function () {
            field.focus();
            field.select();
            if (navigator.clipboard && navigator.clipboard.writeText) {
              navigator.clipboard.writeText(field.value).then(
                function () { copied(true); },
                function () { copied(document.execCommand('copy')); }
              );
            } else {
              copied(document.execCommand('copy'));
            }
          });
        })();
        </script>
        """
    )

    /// The "copy this address" page's answer: never cached, and its address never sent on as a `Referer`; its content
    /// security policy lets its own script and style run and allows no request at all (no fetch, image, form or
    /// frame), so nothing on it can send the code anywhere.
    static func copyAddressResponse() -> Response {
        var answer = response(copyAddress)
        answer.headers[.contentSecurityPolicy] =
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        if let referrerPolicy = FieldName("Referrer-Policy") {
            answer.headers[referrerPolicy] = "no-referrer"
        }
        return answer
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
        <link rel="icon" href="data:,">
        <style>body{font-family:system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em}
        button{font-size:1em;padding:.5em 1.5em}</style></head>
        <body><h1>atoauth web example</h1>
        \(body)
        </body></html>
        """
    }
}
