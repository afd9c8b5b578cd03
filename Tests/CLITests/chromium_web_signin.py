"""A real browser for the web example's end-to-end test: headless Chromium opens the example's page, types a handle,
presses "Sign in with Bluesky", approves on the sandbox's consent page, follows the redirect back to the example's
callback, and reports the page it lands on; then it signs out. Given a "copy this address" target, it then opens that
page through a recording proxy to the example, presses its copy button, and reports what the page shows and every
request the browser sent and the example received.

Usage: python3 chromium_web_signin.py <example-origin> <handle> [<copy-page-path-and-query>]. Prints one line per
step on stdout: "consent page: <title>", "final page: <text>", "after sign-out: <text>"; with the third argument
"copy page opened: <url>", "copy page field: <value>", "copy page read-only: true|false", "copy page status: <what the
copy button said>", "copy page server received: <JSON list of "METHOD target">", "copy page browser sent: <JSON list
of "METHOD url">"; or "error: <what>" (exit status 1).
"""
import http.client
import http.server
import json
import sys
import threading
import time
import urllib.parse

# The shared driver is imported without leaving a __pycache__ in the source tree (SwiftPM would warn of it).
sys.dont_write_bytecode = True
from headless_chromium import headless_chromium  # noqa: E402


def report(message):
    print(message.replace("\n", " | "), flush=True)


def page_text(origin, ready):
    """An expression: the page's text once the browser is at `origin` and `ready` (a JavaScript condition) holds."""
    return (f"location.origin === {json.dumps(origin)} && document.readyState === 'complete' && document.body "
            f"&& ({ready}) ? document.body.innerText : ''")


def main(origin, handle, copy_page=None):
    with headless_chromium() as tools:
        # The example's page, signed out: type the handle as a person would, and press the button.
        tools.call("Page.navigate", url=origin + "/")
        tools.wait_for(page_text(origin, "document.getElementById('handle') !== null"))
        tools.evaluate("document.getElementById('handle').focus()")
        tools.call("Input.insertText", text=handle)
        if tools.evaluate("document.getElementById('handle').value") != handle:  # the page had no focus to type in
            tools.evaluate(f"document.getElementById('handle').value = {json.dumps(handle)}")
        tools.evaluate("document.getElementById('sign-in').click()")

        # The sandbox's consent page (or the example's error page, when the sign-in could not start).
        tools.wait_for("document.readyState === 'complete' && (document.getElementById('approve') !== null "
                       "|| document.getElementById('error') !== null)")
        if tools.evaluate("document.getElementById('approve') === null"):
            raise RuntimeError("the sign-in did not start: " + tools.evaluate("document.body.innerText"))
        report("consent page: " + tools.evaluate("document.title"))
        tools.evaluate("document.getElementById('approve').click()")

        # Back at the example: its callback signs in and sends the browser to its page, or shows an error.
        text = tools.wait_for(page_text(
            origin, "document.getElementById('sign-out') !== null || document.getElementById('error') !== null"))
        report("final page: " + text)
        if tools.evaluate("document.getElementById('sign-out') === null"):
            return 1

        tools.evaluate("document.getElementById('sign-out').click()")
        text = tools.wait_for(page_text(origin, "document.getElementById('handle') !== null"))
        report("after sign-out: " + text)
        if copy_page is not None:
            open_copy_page(tools, origin, copy_page)
        return 0


class RecordingProxy:
    """Forwards every request to `origin` and records each as "METHOD target" (with its body's size when it has one):
    what the example received through it. Serves on 127.0.0.1 on a free port until closed."""

    def __init__(self, origin):
        upstream = urllib.parse.urlsplit(origin)
        received = self.received = []

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def forward(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length > 0 else b""
                chunked = "chunked" in (self.headers.get("Transfer-Encoding") or "").lower()
                note = f" +{len(body)} bytes" if body else (" +chunked body" if chunked else "")
                received.append(f"{self.command} {self.path}{note}")
                connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=30)
                try:
                    headers = {name: value for name, value in self.headers.items()
                               if name.lower() not in ("host", "connection", "keep-alive", "transfer-encoding")}
                    connection.request(self.command, self.path, body=body or None, headers=headers)
                    answer = connection.getresponse()
                    data = answer.read()
                finally:
                    connection.close()
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in ("connection", "keep-alive", "transfer-encoding", "content-length"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = forward

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def open_copy_page(tools, origin, target):
    """Opens the "copy this address" page at `target` (path and query) through a recording proxy, presses its copy
    button, waits a moment for anything it might send, and reports what it shows and every request made."""
    proxy = RecordingProxy(origin)
    try:
        url = proxy.origin + target
        tools.call("Network.enable")
        tools.events.clear()
        tools.call("Page.navigate", url=url)
        report("copy page opened: " + url)
        field = "document.getElementById('address')"
        tools.wait_for(page_text(proxy.origin, f"{field} !== null && {field}.value !== ''"))
        report("copy page field: " + tools.evaluate(f"{field}.value"))
        report("copy page read-only: " + json.dumps(tools.evaluate(f"{field}.readOnly")))
        tools.evaluate("document.getElementById('copy').click()")
        # The click is handled once the page says so; anything it made the page send was sent by then.
        status = tools.wait_for("document.getElementById('copied').textContent")
        report("copy page status: " + (status or ""))
        sent = [f"{event['params']['request']['method']} {event['params']['request']['url']}"
                for event in tools.events
                if event["method"] == "Network.requestWillBeSent"
                and not event["params"]["request"]["url"].startswith("data:")]
        tools.call("Network.disable")
        report("copy page server received: " + json.dumps(proxy.received))
        report("copy page browser sent: " + json.dumps(sent))
    finally:
        proxy.close()


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None))
    except Exception as error:  # reported for the test, which shows it
        report(f"error: {error}")
        sys.exit(1)
