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
}
