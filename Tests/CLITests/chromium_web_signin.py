"""A real browser for the web example's end-to-end test: headless Chromium opens the example's page, types a handle,
presses "Sign in with Bluesky", approves on the sandbox's consent page, follows the redirect back to the example's
callback, and reports the page it lands on; then it signs out.

Usage: python3 chromium_web_signin.py <example-origin> <handle>. Prints one line per step on stdout:
"consent page: <title>", "final page: <text>", "after sign-out: <text>", or "error: <what>" (exit status 1).
"""
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket


def report(message):
    print(message.replace("\n", " | "), flush=True)


class DevTools:
    def __init__(self, url):
        self.socket = websocket.create_connection(url, timeout=30)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    def wait_for(self, expression, timeout=30):
        """The expression's first truthy value; a page being replaced by the next one is waited out."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                value = self.evaluate(expression)
            except RuntimeError:
                value = None
            if value:
                return value
            time.sleep(0.1)
        raise TimeoutError(f"timed out waiting for {expression}; at {self.evaluate('location.href')}")


def page_text(origin, ready):
    """An expression: the page's text once the browser is at `origin` and `ready` (a JavaScript condition) holds."""
    return (f"location.origin === {json.dumps(origin)} && document.readyState === 'complete' && document.body "
            f"&& ({ready}) ? document.body.innerText : ''")


def main(origin, handle):
    profile = tempfile.mkdtemp(prefix="atoauth-chromium-")
    browser = subprocess.Popen(
        ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--remote-debugging-port=0", f"--user-data-dir={profile}", "--window-size=900,700", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        endpoint = None
        deadline = time.time() + 30
        while endpoint is None and time.time() < deadline:
            line = browser.stderr.readline()
            match = re.search(r"DevTools listening on (ws://\S+)", line)
            if match:
                endpoint = match.group(1)
        if endpoint is None:
            raise RuntimeError("chromium did not start")
        port = re.search(r":(\d+)/", endpoint).group(1)
        targets = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json", timeout=10).read().decode())
        page = next(target for target in targets if target.get("type") == "page")
        tools = DevTools(page["webSocketDebuggerUrl"])
        tools.call("Page.enable")

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
        return 0
    finally:
        browser.terminate()
        try:
            browser.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.kill()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1], sys.argv[2]))
    except Exception as error:  # reported for the test, which shows it
        report(f"error: {error}")
        sys.exit(1)
