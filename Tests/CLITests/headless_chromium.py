"""Headless Chromium driven over its DevTools protocol, for the end-to-end tests' browser scripts.

`with headless_chromium() as tools:` starts Chromium with a throwaway profile and yields a `DevTools` connected to
its page; on leaving, every process of the browser has exited and its profile is removed. Chromium's HOME is the
profile too, so it writes nothing into the caller's HOME (a test's folder, removed once the test ends).
"""
import contextlib
import json
import os
import re
import signal
import shutil
import subprocess
import tempfile
import time
import urllib.request

import websocket


class DevTools:
    def __init__(self, url):
        self.socket = websocket.create_connection(url, timeout=30)
        self.next_id = 0
        # The events the browser sent (those of the domains enabled, such as Network), in order, as read so far.
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if "id" not in message and "method" in message:
                self.events.append(message)
            elif message.get("id") == self.next_id:
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
            time.sleep(0.1)  # not a wait for the event: the expression is evaluated again
        raise TimeoutError(f"timed out waiting for {expression}; at {self.evaluate('location.href')}")


@contextlib.contextmanager
def headless_chromium():
    profile = tempfile.mkdtemp(prefix="atoauth-chromium-")
    browser = subprocess.Popen(
        ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--remote-debugging-port=0", f"--user-data-dir={profile}", "--window-size=900,700", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "HOME": profile}, start_new_session=True,
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
        yield tools
    finally:
        stop_group(browser)
        shutil.rmtree(profile, ignore_errors=True)


def stop_group(browser):
    """Stops the browser and the processes it started (its own process group), and returns once none is left."""
    for sent, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(browser.pid, sent)
        except ProcessLookupError:
            pass
        deadline = time.time() + grace
        while time.time() < deadline:
            browser.poll()
            try:
                os.killpg(browser.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)  # polls for the group's last process to exit

