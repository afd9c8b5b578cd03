import Failures
import Testing

@Suite("Sentence: messages joined from parts end each sentence once")
struct SentenceTests {
    @Test(
        "a full stop is added only where no sentence ends",
        arguments: [
            ("try again later", "try again later."), ("is the address right?", "is the address right?"),
            ("done.", "done."), ("wait…", "wait…"), ("stop!", "stop!"), ("", ""),
            ("trailing space ", "trailing space."),
        ]
    )
    func ended(_ text: String, _ expected: String) {
        #expect(Sentence.ended(text) == expected)
    }

    @Test(
        "a sentence after a colon starts in lower case unless its first word is an acronym",
        arguments: [
            ("Nothing accepted the connection", "nothing accepted the connection"),
            ("TLS failed", "TLS failed"), ("DNS said no", "DNS said no"), ("already lower", "already lower"),
            ("", ""),
        ]
    )
    func clause(_ text: String, _ expected: String) {
        #expect(Sentence.clause(text) == expected)
    }
}
