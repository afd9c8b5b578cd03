"""A real browser for the end-to-end test: headless Chromium opens the authorization URL, shows the sandbox's
consent page, clicks Approve, and follows the redirect back to atoauth's loopback listener.

Usage (as $BROWSER): python3 chromium_approve.py <url>. With ATOAUTH_TEST_SCREENSHOT set, a PNG of the consent
page is written there. Progress goes to ATOAUTH_TEST_BROWSER_LOG when set, ending with "browser closed" once no
process of the browser is left.
"""
import base64
import os
import sys

# The shared driver is imported without leaving a __pycache__ in the source tree (SwiftPM would warn of it).
sys.dont_write_bytecode = True
from headless_chromium import headless_chromium  # noqa: E402

LOG = os.environ.get("ATOAUTH_TEST_BROWSER_LOG")


def log(message):
    if LOG:
        with open(LOG, "a") as handle:
            handle.write(message + "\n")


def main(url):
    with headless_chromium() as tools:
        tools.call("Page.navigate", url=url)
        tools.wait_for("document.getElementById('approve') !== null && document.readyState === 'complete'", timeout=20)
        log("consent page: " + tools.evaluate("document.title"))
        screenshot = os.environ.get("ATOAUTH_TEST_SCREENSHOT")
        if screenshot:
            data = tools.call("Page.captureScreenshot", format="png")["data"]
            with open(screenshot, "wb") as handle:
                handle.write(base64.b64decode(data))
        tools.evaluate("document.getElementById('approve').click()")
        text = tools.wait_for(
            "location.hostname === '127.0.0.1' && location.pathname === '/callback' && document.body "
            "&& document.body.innerText.length > 0 ? document.body.innerText : ''", timeout=20)
        log("callback page: " + text.replace("\n", " "))


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except Exception as error:  # report for the test's log; atoauth times out and says so
        log(f"error: {error}")
        log("browser closed")
        sys.exit(1)
    log("browser closed")
