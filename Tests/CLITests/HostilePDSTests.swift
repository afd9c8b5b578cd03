import ATOAuthTesting
import Foundation
import Testing

@Suite("whoami against a PDS that answers for someone else")
struct HostilePDSTests {
    @Test("a getSession answer for another DID is a failed security check; control characters never print")
    func otherDID() async throws {
        let answer = ScriptedResponse.json(
            #"{"did":"did:plc:someoneelse2345678abcdef","handle":"evil\u001b[2J\u009b31m.test"}"#
        )
        try await CLIWorld.withScriptedPDS(LoopbackHTTPServer.always(answer)) { world, _ in
            let did = try #require(world.did("alice.test"))

            let result = try await world.atoauth("whoami")
            #expect(result.status == 4, "\(result.stderr)")
            #expect(result.stderr.contains("not for the session's \(did)"))
            #expect(!result.stdout.contains("evil"))
            for text in [result.stdout, result.stderr] {
                #expect(!text.unicodeScalars.contains { $0.value == 0x1B || (0x80...0x9F).contains($0.value) })
            }
        }
    }

    @Test("whoami prints the handle verified at sign-in, not the one the PDS claims, and says when they differ")
    func claimedHandle() async throws {
        let did = "did:plc:56bjnfdccr54s63qba6lkhke"  // alice.test's, derived from the handle on every run
        let answer = ScriptedResponse.json(#"{"did":"\#(did)","handle":"mallory\u001b[2J.test"}"#)
        try await CLIWorld.withScriptedPDS(LoopbackHTTPServer.always(answer)) { world, _ in
            #expect(world.did("alice.test") == did)
            let result = try await world.atoauth("whoami")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("alice.test \(did) "), "\(result.stdout)")
            #expect(result.stderr.contains("the PDS calls this account mallory"), "\(result.stderr)")
            #expect(result.stderr.contains("the handle verified at sign-in is alice.test"))
            #expect(!result.stderr.unicodeScalars.contains { $0.value == 0x1B })
            let json = try await world.atoauth("whoami", "--json")
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            #expect(object?["handle"] as? String == "alice.test", "\(json.stdout)")
        }
    }
}
