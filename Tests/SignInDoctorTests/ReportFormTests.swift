import Foundation
import SignInDoctor
import Testing

@Suite("The doctor's findings as JSON")
struct ReportFormTests {
    @Test("Every finding has the six members; fix and who are null when nothing is to be done")
    func members() throws {
        let diagnosis = Diagnosis(
            target: "alice.example.com",
            checks: [
                Finding(check: "a", status: .pass, seen: "fine", rule: "RFC 1", fix: "ignored", who: .user),
                Finding(check: "b", status: .fail, seen: "broken", rule: "RFC 2", fix: "mend it", who: .server),
            ]
        )
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(diagnosis)) as? [String: Any]
        )
        #expect(object["target"] as? String == "alice.example.com")
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(Set(checks[0].keys) == ["check", "status", "seen", "rule", "fix", "who"])
        #expect(checks[0]["fix"] is NSNull)
        #expect(checks[0]["who"] is NSNull)
        #expect(checks[1]["fix"] as? String == "mend it")
        #expect(checks[1]["who"] as? String == "server")
        #expect(diagnosis.hasFailure)
    }
}
