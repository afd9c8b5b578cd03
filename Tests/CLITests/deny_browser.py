"""A stand-in for the system browser in tests: opens the authorization URL and presses Deny on the consent page.

The sandbox (not in auto-approve mode) shows its consent form; this posts it with decision=deny, and the
authorization server redirects to the loopback callback with error=access_denied.
"""
import re
import sys
import urllib.parse
import urllib.request

with urllib.request.urlopen(sys.argv[1], timeout=30) as response:
    page = response.read().decode()
    action = urllib.parse.urljoin(response.geturl(), re.search(r'<form[^>]*action="([^"]+)"', page).group(1))
fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
fields["decision"] = "deny"
request = urllib.request.Request(action, data=urllib.parse.urlencode(fields).encode(), method="POST")
with urllib.request.urlopen(request, timeout=30) as response:
    response.read()
