"""A stand-in for the system browser in tests: opens the authorization URL and signs up on the sandbox's page.

Usage: signup_browser.py HANDLE URL (atoauth appends the URL to `$BROWSER`). With `prompt=create` the sandbox (not in
auto-approve mode) shows its sign-up form; this fills in HANDLE and posts it with decision=create, and the
authorization server redirects to the loopback callback with a code for the new account.
"""
import re
import sys
import urllib.parse
import urllib.request

with urllib.request.urlopen(sys.argv[2], timeout=30) as response:
    page = response.read().decode()
    action = urllib.parse.urljoin(response.geturl(), re.search(r'<form[^>]*action="([^"]+)"', page).group(1))
if "Create an account" not in page:
    sys.exit("not the sign-up page: " + page[:200])
fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
fields["decision"] = "create"
fields["handle"] = sys.argv[1]
request = urllib.request.Request(action, data=urllib.parse.urlencode(fields).encode(), method="POST")
with urllib.request.urlopen(request, timeout=30) as response:
    response.read()
