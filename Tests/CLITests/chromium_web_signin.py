"""A real browser for the web example's end-to-end test: headless Chromium opens the example's page, types a handle,
presses "Sign in with Bluesky", approves on the sandbox's consent page, follows the redirect back to the example's
callback, and reports the page it lands on; then it signs out.

Usage: python3 chromium_web_signin.py <example-origin> <handle>. Prints one line per step on stdout:
"consent page: <title>", "final page: <text>", "after sign-out: <text>", or "error: <what>" (exit status 1).
"""
import json
import sys

from headless_chromium import headless_chromium


def report(message):
    print(message.replace("\n", " | "), flush=True)


def page_text(origin, ready):
    """An expression: the page's text once the browser is at `origin` and `ready` (a JavaScript condition) holds."""
    return (f"location.origin === {json.dumps(origin)} && document.readyState === 'complete' && document.body "
            f"&& ({ready}) ? document.body.innerText : ''")


def main(origin, handle):
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
        return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1], sys.argv[2]))
    except Exception as error:  # reported for the test, which shows it
        report(f"error: {error}")
        sys.exit(1)
