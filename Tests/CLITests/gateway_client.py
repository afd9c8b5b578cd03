"""A program in another language using atoauth gateway with Python's standard library only.

Usage: gateway_client.py records BASE TOKEN_FILE REPO
       gateway_client.py blob BASE TOKEN_FILE SIZE
       gateway_client.py slow-upload BASE TOKEN_FILE SIZE CHUNKS PAUSE [HOLD]
       gateway_client.py calls BASE TOKEN_FILE CALLS_JSON
Prints one JSON object on stdout. With HOLD, the upload stops after HOLD pieces, says "held" on standard error, and
goes on when a line arrives on standard input: a test holds an upload half sent for as long as it needs.
"""
import hashlib
import http.client
import json
import os
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request


def token(path):
    with open(path, encoding="utf-8") as f:
        return f.read().strip()


def call(base, tok, nsid, params=None, body=None, content_type=None, headers=None):
    url = f"{base}/xrpc/{nsid}"
    if params:
        url += "?" + urllib.parse.urlencode(params)
    headers = dict(headers or {}, Authorization=f"Bearer {tok}")
    if content_type:
        headers["Content-Type"] = content_type
    request = urllib.request.Request(url, data=body, headers=headers, method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def records(base, tok, repo):
    created = []
    for index in range(5):
        record = {"$type": "app.bsky.feed.post", "text": f"post {index}", "createdAt": "2026-11-26T00:00:00Z"}
        body = json.dumps({"repo": repo, "collection": "app.bsky.feed.post", "record": record}).encode()
        status, answer = call(base, tok, "com.atproto.repo.createRecord", body=body, content_type="application/json")
        if status != 200:
            return {"error": f"createRecord {status} {answer}"}
        created.append(answer["uri"])
    pages, listed, cursor = 0, [], None
    while True:
        params = {"repo": repo, "collection": "app.bsky.feed.post", "limit": "2"}
        if cursor:
            params["cursor"] = cursor
        status, answer = call(base, tok, "com.atproto.repo.listRecords", params)
        if status != 200:
            return {"error": f"listRecords {status} {answer}"}
        pages += 1
        listed += [entry["uri"] for entry in answer["records"]]
        cursor = answer.get("cursor")
        if not cursor or pages > 10:
            break
    return {"created": created, "listed": listed, "pages": pages}


def connection(base):
    parts = urllib.parse.urlsplit(base)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)


def blob(base, tok, size):
    digest = hashlib.sha256()
    with tempfile.TemporaryFile() as source:
        remaining = size
        while remaining:
            chunk = os.urandom(min(remaining, 1 << 20))
            digest.update(chunk)
            source.write(chunk)
            remaining -= len(chunk)
        source.seek(0)
        link = connection(base)
        link.request(
            "POST",
            "/xrpc/com.atproto.repo.uploadBlob",
            body=source,
            headers={
                "Authorization": f"Bearer {tok}",
                "Content-Type": "application/octet-stream",
                "Content-Length": str(size),
            },
        )
        answer = link.getresponse()
        uploaded = json.loads(answer.read())
        if answer.status != 200:
            return {"error": f"uploadBlob {answer.status} {uploaded}"}
    cid = uploaded["blob"]["ref"]["$link"]
    status, session = call(base, tok, "com.atproto.server.getSession")
    link = connection(base)
    query = urllib.parse.urlencode({"did": session["did"], "cid": cid})
    link.request("GET", f"/xrpc/com.atproto.sync.getBlob?{query}", headers={"Authorization": f"Bearer {tok}"})
    answer = link.getresponse()
    received = hashlib.sha256()
    count = 0
    while True:
        chunk = answer.read(1 << 16)
        if not chunk:
            break
        received.update(chunk)
        count += len(chunk)
    return {
        "status": answer.status,
        "sent": digest.hexdigest(),
        "received": received.hexdigest(),
        "size": count,
        "contentType": answer.getheader("Content-Type"),
    }


def slow_upload(base, tok, size, chunks, pause, hold=None):
    """Sends the body in CHUNKS pieces with PAUSE seconds between them (waiting for a line on standard input after
    HOLD pieces); says what came back."""
    piece = size // chunks
    link = connection(base)
    link.putrequest("POST", "/xrpc/com.atproto.repo.uploadBlob")
    link.putheader("Authorization", f"Bearer {tok}")
    link.putheader("Content-Type", "application/octet-stream")
    link.putheader("Content-Length", str(piece * chunks))
    link.endheaders()
    digest = hashlib.sha256()
    try:
        for index in range(chunks):
            if index == hold:
                sys.stderr.write("held\n")
                sys.stderr.flush()
                sys.stdin.readline()
            chunk = os.urandom(piece)
            digest.update(chunk)
            link.send(chunk)
            sys.stderr.write("sent\n")
            sys.stderr.flush()
            time.sleep(pause)  # a slow upload's pace, on purpose
        answer = link.getresponse()
        body = answer.read()
        return {"status": answer.status, "sent": digest.hexdigest(), "body": json.loads(body or b"{}")}
    except (OSError, http.client.HTTPException) as error:
        return {"failed": type(error).__name__}


def calls(base, tok, listed):
    """Makes each call of a JSON list ({nsid, params, json, data, content_type, headers}); their statuses and errors."""
    answers = []
    for item in json.loads(listed):
        body, content_type = None, item.get("content_type")
        if "json" in item:
            body, content_type = json.dumps(item["json"]).encode(), "application/json"
        elif "data" in item:
            body = item["data"].encode()
        status, answer = call(base, tok, item["nsid"], item.get("params"), body, content_type, item.get("headers"))
        answers.append({"status": status, "error": answer.get("error"), "did": answer.get("did")})
    return {"answers": answers}


def main():
    command, base, token_file = sys.argv[1], sys.argv[2], sys.argv[3]
    tok = token(token_file)
    if command == "records":
        result = records(base, tok, sys.argv[4])
    elif command == "blob":
        result = blob(base, tok, int(sys.argv[4]))
    elif command == "calls":
        result = calls(base, tok, sys.argv[4])
    else:
        hold = int(sys.argv[7]) if len(sys.argv) > 7 else None
        result = slow_upload(base, tok, int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), hold)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
