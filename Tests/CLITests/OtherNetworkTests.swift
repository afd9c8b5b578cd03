import Foundation
import Testing

/// An account signed in with a PLC directory and a handle resolver other than the defaults (here the sandbox's) keeps
/// them: its refreshes re-resolve the DID there, whatever the environment of a later command says.
@Suite("An account signed in on another network")
struct OtherNetworkTests {
    @Test("its PLC directory and resolver are kept and shown; refreshes use them; an option naming others wins")
    func keptServices() async throws {
        try await CLIWorld.with(["--access-token-lifetime", "2"]) { world in
            try await world.signIn("alice.test")
            let directory = try #require(world.environment["ATOAUTH_PLC_DIRECTORY"])
            let resolver = try #require(world.environment["ATOAUTH_HANDLE_RESOLVER"])
            // Later commands run without the sandbox's directory and resolver, as from a new shell.
            var elsewhere = world.environment
            elsewhere["ATOAUTH_PLC_DIRECTORY"] = nil
            elsewhere["ATOAUTH_HANDLE_RESOLVER"] = nil

            let status = try await CLIProcess.run(["accounts", "status", "--json"], environment: elsewhere)
            #expect(status.status == 0, "\(status.stderr)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            )
            #expect(object["plcDirectory"] as? String == URL(string: directory)?.absoluteString)
            #expect(object["handleResolver"] as? String == URL(string: resolver)?.absoluteString)
            let text = try await CLIProcess.run(["accounts", "status"], environment: elsewhere)
            #expect(text.stdout.contains("PLC          \(directory)"), "\(text.stdout)")

            try await world.sandbox.expireAccessTokens()
            let before = try await world.sandbox.counters().refreshGrantsSucceeded
            // A directory named on the command line wins: nothing listens there, so the refresh fails and nothing
            // is refreshed.
            let named = try await CLIProcess.run(
                ["whoami", "--plc-directory", "http://127.0.0.1:1"],
                environment: elsewhere
            )
            #expect(named.status == 1, "\(named.stderr)")
            #expect(try await world.sandbox.counters().refreshGrantsSucceeded == before)

            let whoami = try await CLIProcess.run(["whoami"], environment: elsewhere)
            #expect(whoami.status == 0, "\(whoami.stderr)")
            #expect(whoami.stdout.contains("alice.test"))
            #expect(try await world.sandbox.counters().refreshGrantsSucceeded == before + 1)
        }
    }
}
