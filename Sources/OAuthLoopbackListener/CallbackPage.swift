import WireFormat

/// The small HTML page the browser shows after the redirect: signed in, or what failed.
public struct CallbackPage: Sendable, Hashable {
    /// The page's headline.
    public var title: String
    /// One or two sentences under it.
    public var message: String

    /// Creates a page.
    public init(title: String, message: String) {
        self.title = title
        self.message = message
    }

    /// The page after a successful sign-in.
    public static func signedIn(as name: String) -> CallbackPage {
        CallbackPage(title: "Signed in", message: "atoauth is signed in as \(name). You can close this window.")
    }

    /// The page after a failed sign-in.
    public static func failed(_ reason: String) -> CallbackPage {
        CallbackPage(title: "Sign-in failed", message: "\(reason) You can close this window.")
    }

    /// The page as a complete HTML document, with the text escaped.
    var html: String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(HTMLText.escaped(title)) – atoauth</title>
        <style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}</style>
        </head><body><h1>\(HTMLText.escaped(title))</h1><p>\(HTMLText.escaped(message))</p></body></html>
        """
    }

}
