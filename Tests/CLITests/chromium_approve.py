"""A real browser for the end-to-end test: headless Chromium opens the authorization URL, shows the sandbox's
consent page, clicks Approve, and follows the redirect back to atoauth's loopback listener.

Usage (as $BROWSER): python3 chromium_approve.py <url>. With ATOAUTH_TEST_SCREENSHOT set, a PNG of the consent
page is written there. Progress goes to ATOAUTH_TEST_BROWSER_LOG when set.
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import websocket

LOG = os.environ.get("ATOAUTH_TEST_BROWSER_LOG")


def log(message):
    if LOG:
        with open(LOG, "a") as handle:
            handle.write(message + "\n")


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

    def wait_for(self, expression, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        raise TimeoutError(f"timed out waiting for {expression}")


def main(url):
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
        targets = json.loads(subprocess.run(
            ["python3", "-c", f"import urllib.request;print(urllib.request.urlopen('http://127.0.0.1:{port}/json').read().decode())"],
            capture_output=True, text=True, check=True).stdout)
        page = next(target for target in targets if target.get("type") == "page")
        tools = DevTools(page["webSocketDebuggerUrl"])
        tools.call("Page.enable")
        tools.call("Page.navigate", url=url)
        tools.wait_for("document.getElementById('approve') !== null && document.readyState === 'complete'")
        log("consent page: " + tools.evaluate("document.title"))
        screenshot = os.environ.get("ATOAUTH_TEST_SCREENSHOT")
        if screenshot:
            data = tools.call("Page.captureScreenshot", format="png")["data"]
            with open(screenshot, "wb") as handle:
                handle.write(base64.b64decode(data))
        tools.evaluate("document.getElementById('approve').click()")
        text = tools.wait_for(
            "location.hostname === '127.0.0.1' && location.pathname === '/callback' && document.body "
            "&& document.body.innerText.length > 0 ? document.body.innerText : ''")
        log("callback page: " + text.replace("\n", " "))
    finally:
        browser.terminate()
        try:
            browser.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.kill()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except Exception as error:  # report for the test's log; atoauth times out and says so
        log(f"error: {error}")
        sys.exit(1)
