// A resource or authorization server's answer to a DPoP request: `WWW-Authenticate` challenges (RFC 9110 §11.6.1,
// RFC 9449 §7.1 and §8), the `DPoP-Nonce` header, and the two readers built on them, the nonce-challenge check of
// the DPoP executor and the invalid-token check of an account connection.
//
// Input: header values, one per line.

import FuzzSupport
import HTTPTransport

@testable import AccountManager
@testable import DPoPRequestExecutor

let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

Fuzzer.run { input in
    let values = input.lines
    let challenges = WWWAuthenticateChallenge.parse(values)
    invariant(
        challenges == values.flatMap { WWWAuthenticateChallenge.parse([$0]) },
        "header values are parsed independently of each other"
    )
    for challenge in challenges {
        invariant(
            !challenge.scheme.isEmpty && challenge.scheme.utf8.allSatisfy(tokenCharacters.contains),
            "a scheme is a token"
        )
        for name in challenge.parameters.keys {
            invariant(!name.isEmpty && name == name.lowercased(), "parameter names are lowercased tokens")
        }
        invariant(challenge.token68 == nil || challenge.parameters.isEmpty, "token68 and parameters exclude each other")
    }

    var headers = HTTPHeaders()
    for value in values {
        headers.add(name: "WWW-Authenticate", value: value)
        headers.add(name: "DPoP-Nonce", value: value)
        if DPoPNonceSyntax.isValid(value) {
            invariant(value.utf8.count <= DPoPNonceSyntax.maximumLength, "a kept nonce is at most 1024 bytes")
            invariant(!value.contains(where: \.isWhitespace), "a kept nonce has no white space")
        }
    }
    for status in [400, 401] {
        let response = HTTPResponse(status: status, headers: headers, body: input.data)
        _ = DPoPNonceChallenge.isChallenge(response)
        _ = InvalidTokenAnswer.matches(response)
    }
}
