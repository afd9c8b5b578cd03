"""A stand-in for the system browser in tests: opens the URL, follows the redirects, like a person who approves.

atoauth runs `$BROWSER <url>`; with the sandbox in auto-approve mode the authorization URL redirects straight to
the loopback callback, which answers with the "signed in" page.
"""
import sys
import urllib.request

with urllib.request.urlopen(sys.argv[1], timeout=30) as response:
    response.read()
