"""Verifies a client assertion (RFC 7523) made by atoauth with joserfc, an independent JOSE implementation.

Reads {"assertion", "jwk", "client_id", "audience"} on stdin and prints {"valid", "header", "claims", "error"}.
"""
import json
import sys

from joserfc import jwt
from joserfc.jwk import ECKey


def main():
    request = json.load(sys.stdin)
    result = {"valid": False, "header": None, "claims": None, "error": None}
    try:
        key = ECKey.import_key(request["jwk"])
        token = jwt.decode(request["assertion"], key, algorithms=["ES256"])
        claims = token.claims
        header = token.header
        result["header"] = header
        result["claims"] = claims
        problems = []
        if header.get("alg") != "ES256":
            problems.append("alg")
        if header.get("kid") != request["jwk"]["kid"]:
            problems.append("kid")
        if claims.get("iss") != request["client_id"] or claims.get("sub") != request["client_id"]:
            problems.append("iss/sub")
        if claims.get("aud") != request["audience"]:
            problems.append("aud")
        if not isinstance(claims.get("jti"), str) or len(claims["jti"]) < 16:
            problems.append("jti")
        if not isinstance(claims.get("iat"), int) or not isinstance(claims.get("exp"), int):
            problems.append("iat/exp")
        elif not 0 < claims["exp"] - claims["iat"] <= 300:
            problems.append("lifetime")
        registry = jwt.JWTClaimsRegistry(iss={"essential": True, "value": request["client_id"]},
                                         aud={"essential": True, "value": request["audience"]},
                                         exp={"essential": True}, jti={"essential": True})
        registry.validate(claims)
        result["valid"] = not problems
        if problems:
            result["error"] = "wrong " + ", ".join(problems)
    except Exception as error:  # the test reports what failed
        result["error"] = f"{type(error).__name__}: {error}"
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
