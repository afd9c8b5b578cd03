import ATOAuthTesting
import Foundation
import Testing

/// Every time-out and lost server says what to do about it: a sign-in's wait names `--timeout`, a request that ran
/// out of time names `--request-timeout` (as `whoami`'s does), a server gone mid-sign-in says to start again, and a
/// failed refresh names the account it was refreshing.
@Suite("Time-outs and lost servers name their remedy, through the CLI as a process", .serialized)
struct SignInTimeoutTests {
    @Test("nobody approves before --timeout: the message says to start again and how to wait longer")
    func waitTimesOut() async throws {
        try await CLIWorld.with { world in
            let running = try world.startSignIn("alice.test", ["--no-browser", "--timeout", "1"])
            let result = try await running.finish()
            expectTeaching(result, exit: 1, saying: ["Sign-in timed out", "within 1 second.", "--timeout SECONDS"])
        }
    }

    @Test("a sign-in request slower than --request-timeout names --request-timeout, as whoami's time-out does")
    func requestTimesOut() async throws {
        try await CLIWorld.with { world in
            try await world.sandbox.configure(#"{"slowResponses": 3}"#)
            let result = try await world.atoauth("accounts", "add", "alice.test", "--request-timeout", "1")
            expectTeaching(
                result,
                exit: 1,
                saying: ["timed out after 1 s", "--request-timeout SECONDS (or ATOAUTH_REQUEST_TIMEOUT"]
            )
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") })
        }
    }

    @Test("the servers go away after the approval: the sign-in fails saying to start it again; nothing is stored")
    func serverGoesAway() async throws {
        try await CLIWorld.with { world in
            let running = try world.startSignIn("alice.test")
            let before = try await running.waitForStderr(containing: "paste it here and press Enter")
            let redirect = try await world.redirectAddress(approving: try CLIWorld.authorizationURL(in: before))
            await world.sandbox.stop()
            running.write(redirect.absoluteString + "\n")
            let result = try await running.finish()
            expectTeaching(result, exit: 1, saying: ["start the sign-in again"])
            #expect(!result.stderr.contains(try CLIWorld.code(in: redirect)))
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") })
        }
    }

    @Test("a refresh the server fails names the account it was refreshing")
    func refreshNamesAccount() async throws {
        try await CLIWorld.with(["--access-token-lifetime", "1", "--fail-refreshes", "1"]) { world in
            try await world.signIn("alice.test")
            try await world.sandbox.expireAccessTokens(issuedFor: 1, then: "{}")
            let result = try await world.atoauth("whoami")
            expectTeaching(result, exit: 1, saying: ["refresh of alice.test", "try again later"])
        }
    }

    @Test("a refresh that got no answer in time names the account and --request-timeout")
    func refreshTimesOut() async throws {
        try await CLIWorld.with(["--access-token-lifetime", "2"]) { world in
            try await world.signInWithAppPassword("alice.test")
            try await world.sandbox.expireAccessTokens(then: #"{"slowResponses": 4}"#)
            let late = try await world.atoauth("whoami", "--request-timeout", "1")
            expectTeaching(
                late,
                exit: 1,
                saying: [
                    "refreshing the session of alice.test", "timed out after 1 s", "--request-timeout SECONDS",
                    "The session is kept.",
                ]
            )
        }
    }
}
