"""Independent DPoP checks for the Swift test suite (pydpop and joserfc, not our code).

verify: reads [{proof, htm, htu, access_token?, nonce?, now}] on stdin and prints, for each case,
        {"pydpop": bool, "joserfc": bool, "thumbprint": str|null, "error": str|null}.
mint:   reads {htm, htu, access_token?, nonce?} on stdin and prints {"proof": str, "jkt": str} made by pydpop.
"""
import base64
import json
import sys

from joserfc import jws
from joserfc.jwk import ECKey
from pydpop.jwk import generate_key, jwk_thumbprint, public_jwk
from pydpop.proof import generate_proof
from pydpop.verifier import DPoPError, verify_proof


def verify(cases):
    results = []
    for case in cases:
        result = {"pydpop": False, "joserfc": False, "thumbprint": None, "error": None}
        try:
            checked = verify_proof(
                proof=case["proof"], htm=case["htm"], htu=case["htu"],
                access_token=case.get("access_token"), expected_nonce=case.get("nonce"),
                now=case["now"],
            )
            result["pydpop"] = True
            result["thumbprint"] = checked["jwk_thumbprint"]
        except DPoPError as error:
            result["error"] = str(error)
        try:
            header = json.loads(_header(case["proof"]))
            key = ECKey.import_key(header["jwk"])
            jws.deserialize_compact(case["proof"], key, algorithms=["ES256"])
            result["joserfc"] = True
        except Exception as error:  # joserfc raises several types; any failure means "not valid"
            result["error"] = result["error"] or f"joserfc: {type(error).__name__}"
        results.append(result)
    return results


def _header(proof):
    segment = proof.split(".")[0]
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)).decode()


def mint(request):
    key = generate_key()
    proof = generate_proof(
        private_key=key, htm=request["htm"], htu=request["htu"],
        access_token=request.get("access_token"), nonce=request.get("nonce"),
    )
    return {"proof": proof, "jkt": jwk_thumbprint(public_jwk(key))}


if __name__ == "__main__":
    mode = sys.argv[1]
    payload = json.load(sys.stdin)
    print(json.dumps(verify(payload) if mode == "verify" else mint(payload)))
