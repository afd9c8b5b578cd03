"""A stand-in for the system browser in tests that plays a forged redirect: it denies on the sandbox's consent page
without following the redirect, and sends the loopback listener that redirect with a state no sign-in started
instead of the real one. The real sign-in never gets its redirect, so the wait ends at --timeout.
"""
import re
import sys
import urllib.error
import urllib.parse
import urllib.request


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


with urllib.request.urlopen(sys.argv[1], timeout=30) as response:
    page = response.read().decode()
    action = urllib.parse.urljoin(response.geturl(), re.search(r'<form[^>]*action="([^"]+)"', page).group(1))
fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
fields["decision"] = "deny"
opener = urllib.request.build_opener(NoRedirect)
try:
    opener.open(urllib.request.Request(action, data=urllib.parse.urlencode(fields).encode(), method="POST"), timeout=30)
    sys.exit("the consent form did not redirect")
except urllib.error.HTTPError as redirect:
    location = redirect.headers["Location"]
callback = urllib.parse.urlsplit(location)
query = [(name, "forged-by-another-page" if name == "state" else value)
         for name, value in urllib.parse.parse_qsl(callback.query)]
forged = urllib.parse.urlunsplit(callback._replace(query=urllib.parse.urlencode(query)))
try:
    urllib.request.urlopen(forged, timeout=10).read()
except urllib.error.HTTPError as refused:
    refused.read()
