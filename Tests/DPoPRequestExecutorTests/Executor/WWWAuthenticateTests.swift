import DPoPRequestExecutor
import Testing

@Suite("WWW-Authenticate parsing")
struct WWWAuthenticateTests {
    @Test("a DPoP nonce challenge")
    func dpopChallenge() {
        let challenges = WWWAuthenticateChallenge.parse([#"DPoP error="use_dpop_nonce", error_description="x""#])
        #expect(
            challenges == [.init(scheme: "DPoP", parameters: ["error": "use_dpop_nonce", "error_description": "x"])]
        )
    }

    @Test("several challenges in one value, with commas and escapes inside quoted strings")
    func severalChallenges() {
        let value =
            #"Bearer realm="a, b", DPoP algs="ES256 PS256", error="use_dpop_nonce", "#
            + #"error_description="say \"hi\", then \\ go", Basic realm=x"#
        let challenges = WWWAuthenticateChallenge.parse([value])
        #expect(challenges.map(\.scheme) == ["Bearer", "DPoP", "Basic"])
        #expect(challenges[0].parameters == ["realm": "a, b"])
        #expect(challenges[1].parameters["algs"] == "ES256 PS256")
        #expect(challenges[1].parameters["error"] == "use_dpop_nonce")
        #expect(challenges[1].parameters["error_description"] == #"say "hi", then \ go"#)
        #expect(challenges[2].parameters == ["realm": "x"])
    }

    @Test("several header fields, a scheme without parameters, and token68")
    func fieldsAndToken68() {
        let challenges = WWWAuthenticateChallenge.parse(["Newauth, Bearer abc123==", "dpop ERROR=use_dpop_nonce"])
        #expect(challenges.map(\.scheme) == ["Newauth", "Bearer", "dpop"])
        #expect(challenges[0].parameters.isEmpty && challenges[0].token68 == nil)
        #expect(challenges[1].token68 == "abc123==")
        #expect(challenges[2].hasScheme("DPoP"))
        #expect(challenges[2].parameters["error"] == "use_dpop_nonce")
    }

    @Test(
        "malformed input ends without looping",
        arguments: ["", ",,,", "\"", "DPoP error=\"unterminated", "= = ,", "a b c"]
    )
    func malformed(value: String) {
        _ = WWWAuthenticateChallenge.parse([value])
    }
}
