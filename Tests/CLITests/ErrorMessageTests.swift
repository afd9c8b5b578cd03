import ATOAuthTesting
import Foundation
import Testing

/// One test per row of the failure table in docs/errors.md: each failure a user meets says what happened and what
/// to do, in the user's terms, with the contract's exit status.
@Suite("Errors that teach: the table in docs/errors.md")
struct ErrorMessageTests {
    @Test("no account signed in: exit 3 and how to sign in")
    func noAccount() async throws {
        try await CLIWorld.with { world in
            let result = try await world.atoauth("whoami")
            expectTeaching(result, exit: 3, saying: ["No account is signed in here.", "atoauth accounts add <handle>"])
        }
    }

    @Test("an account that is not signed in here: exit 3, named, with the command that signs it in")
    func accountNotSignedIn() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            for arguments in [["--account", "bob.test", "whoami"], ["accounts", "switch", "bob.test"]] {
                let result = try await CLIProcess.run(arguments, environment: world.environment)
                expectTeaching(
                    result,
                    exit: 3,
                    saying: ["No signed-in account is bob.test.", "atoauth accounts add bob.test", "accounts list"]
                )
            }
            // Removing what is not there needs no sign-in: exit 1, and nothing suggests one.
            let remove = try await world.atoauth("accounts", "remove", "bob.test")
            expectTeaching(
                remove,
                exit: 1,
                saying: ["No signed-in account is bob.test, so nothing was removed.", "accounts list"],
                never: ["accounts add"]
            )
        }
    }

    @Test("a handle that does not exist: exit 1, the resolver's words, and what to check")
    func unknownHandle() async throws {
        try await CLIWorld.with { world in
            let result = try await world.atoauth("accounts", "add", "nobody.test", "--no-browser")
            expectTeaching(
                result,
                exit: 1,
                saying: ["Could not resolve the handle nobody.test", "HTTP 400", "Check the handle's spelling"],
                never: ["try again later"]
            )
        }
    }

    @Test("a DID the directory does not know: exit 1, unknown or deactivated, and what to check")
    func unknownDID() async throws {
        try await CLIWorld.with { world in
            let did = "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"
            let result = try await world.atoauth("accounts", "add", did, "--no-browser")
            expectTeaching(
                result,
                exit: 1,
                saying: ["DID document of \(did)", "HTTP 404", "unknown or deactivated", "Check the DID"],
                never: ["try again later"]
            )
        }
    }

    @Test("a server that is down: exit 1, nothing listening, never errno text or certificate advice")
    func serverDown() async throws {
        let closed = try ClosedPort()
        try await CLIWorld.with { world in
            let result = try await world.atoauth("accounts", "add", "http://127.0.0.1:\(closed.port)", "--no-browser")
            expectTeaching(
                result,
                exit: 1,
                saying: ["Nothing accepted the connection to 127.0.0.1:\(closed.port)", "is the server running"],
                never: ["certificate", "Check the handle"]
            )
        }
    }

    @Test("a development server on this machine without --allow-http-loopback: exit 4, naming the option to give")
    func loopbackNotAllowed() async throws {
        try await CLIWorld.with { world in
            var environment = world.environment
            environment["ATOAUTH_ALLOW_HTTP_LOOPBACK"] = nil
            let result = try await CLIProcess.run(
                ["accounts", "add", "alice.test", "--no-browser"],
                environment: environment
            )
            expectTeaching(
                result,
                exit: 4,
                saying: ["Refused to connect: http://127.0.0.1:", "does not use https", "give --allow-http-loopback"]
            )
        }
    }

    @Test("the PDS goes down after sign-in: whoami exits 1 and says nothing is listening")
    func pdsDown() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            await world.sandbox.stop()
            let result = try await world.atoauth("whoami")
            expectTeaching(result, exit: 1, saying: ["Nothing accepted the connection", "is the server running"])
        }
    }

    @Test("a server whose connection never completes: exit 1, timed out, and no option that does not exist")
    func serverTimesOut() async throws {
        let blackhole = try await BlackholeListener.start()
        try await CLIWorld.with { world in
            let result = try await world.atoauth(
                "accounts",
                "add",
                "http://127.0.0.1:\(blackhole.port)",
                "--no-browser"
            )
            expectTeaching(
                result,
                exit: 1,
                saying: ["Timed out after 10 s connecting", "the server is up"],
                never: ["--"]
            )
        }
        await blackhole.shutdown()
    }

    /// Runs `accounts add alice.test` against a sandbox that waits for consent, with `browser` as `$BROWSER`,
    /// checks that nothing of the sign-in was kept, and returns the process's result.
    private func unfinishedSignIn(browser: String, timeout: Int? = nil) async throws -> CLIProcess.Result {
        try await CLIWorld.with(autoApprove: false) { world in
            let result = try await world.atoauth(
                ["accounts", "add", "alice.test"] + (timeout.map { ["--timeout", "\($0)"] } ?? []),
                extraEnvironment: ["BROWSER": browser]
            )
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") && !$0.hasPrefix("pending/") })
            return result
        }
    }

    @Test("nobody approves in time: exit 1, how long it waited, and how to start again")
    func signInTimesOut() async throws {
        let result = try await unfinishedSignIn(browser: "true", timeout: 1)
        expectTeaching(result, exit: 1, saying: ["within 1 second.", "Start it again"])
    }

    @Test("the user presses Deny: exit 1, the server's words, nothing stored, how to sign in")
    func userDenies() async throws {
        let result = try await unfinishedSignIn(browser: "python3 \(Self.denyBrowser.path)")
        expectTeaching(
            result,
            exit: 1,
            saying: ["access_denied", "Nothing was stored", "approve in the browser"],
            never: ["try again later"]
        )
    }

    @Test("a redirect with another sign-in's state, then no approval: exit 4, saying it was refused, not missing")
    func refusedRedirect() async throws {
        // The wait always runs to its end (the real redirect never comes); 10 s leave the stand-in browser, a Python
        // process making three requests, ample time on a loaded machine to send its forged one first.
        let result = try await unfinishedSignIn(browser: "python3 \(Self.forgedStateBrowser.path)", timeout: 10)
        expectTeaching(
            result,
            exit: 4,
            saying: ["a redirect came back with a state that belongs to no sign-in under way", "nothing was stored"],
            never: ["no redirect arrived"]
        )
    }

    @Test("the server refuses the requested permissions (invalid_scope): exit 1, says which, points at --scope")
    func scopeRefused() async throws {
        try await CLIWorld.with { world in
            let result = try await world.atoauth(
                "accounts",
                "add",
                "alice.test",
                "--no-browser",
                "--scope",
                "atproto include:com.example.unknownSet"
            )
            expectTeaching(
                result,
                exit: 1,
                saying: ["refused the requested permissions", "invalid_scope", "--scope"],
                never: ["try again later"]
            )
        }
    }

    @Test("an XRPC error answer: exit 1 with the method, the status and the server's error and message")
    func xrpcError() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let result = try await world.atoauth(
                "xrpc",
                "com.atproto.repo.getRecord",
                "repo=alice.test",
                "collection=app.bsky.feed.post",
                "rkey=nope"
            )
            expectTeaching(result, exit: 1, saying: ["com.atproto.repo.getRecord failed (HTTP 400 RecordNotFound)"])
        }
    }

    @Test("the authorization server fails a refresh (HTTP 500): exit 1, the session kept, try again later")
    func refreshServerError() async throws {
        try await CLIWorld.with(["--access-token-lifetime", "1", "--fail-refreshes", "1"]) { world in
            try await world.signIn("alice.test")
            try await world.sandbox.expireAccessTokens(issuedFor: 1, then: "{}")
            let result = try await world.atoauth("whoami")
            expectTeaching(result, exit: 1, saying: ["try again later", "The session is kept."])
            #expect(try world.storedNames().contains { $0.hasPrefix("session/") })
        }
    }

    @Test("an app-password refresh answered after the time limit: exit 1, the session kept; the next command goes on")
    func appPasswordRefreshAnsweredLate() async throws {
        try await CLIWorld.with(["--access-token-lifetime", "2"]) { world in
            try await world.signInWithAppPassword("alice.test")
            // The PDS holds the refresh past the client's limit, then carries it out: the refresh JWT is used.
            try await world.sandbox.expireAccessTokens(then: #"{"slowResponses": 8}"#)
            let late = try await world.atoauth("whoami", "--request-timeout", "2")
            expectTeaching(
                late,
                exit: 1,
                saying: ["timed out after 2 s", "The session is kept."],
                never: ["will not be sent again", "ended"]
            )
            try await world.sandbox.configure(#"{"slowResponses": 0}"#)
            var counters = try await Waiting.value("the sandbox to carry out the late refresh", timeout: .seconds(120))
            {
                let counters = try await world.sandbox.counters()
                return counters.legacyRefreshesSucceeded > 0 ? counters : nil
            }
            #expect(counters.legacyRefreshesSucceeded == 1)

            // The used refresh JWT is sent again; the PDS answers it with the same next one.
            let next = try await world.atoauth("whoami")
            #expect(next.status == 0, "\(next.stderr)")
            #expect(next.stdout.contains("alice.test"))
            counters = try await world.sandbox.counters()
            #expect(counters.legacyRefreshesSucceeded == 2)
            #expect(counters.legacyRefreshTokenReuses == 1)
            #expect(counters.refreshTokenReplays == 0)
            #expect(try world.storedNames().contains { $0.hasPrefix("session/") })
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("refreshing/") })
        }
    }

    @Test("a refresh answer that fails a check (no atproto granted): exit 3, the session ended and revoked, said once")
    func refreshAnswerFailsCheck() async throws {
        try await CLIWorld.with(["--access-token-lifetime", "2"]) { world in
            try await world.signIn("alice.test")
            try await world.sandbox.expireAccessTokens(then: #"{"withheldPermissions": ["atproto"]}"#)
            let ended = try await world.atoauth("whoami")
            expectTeaching(
                ended,
                exit: 3,
                saying: [
                    "The session of alice.test ended:", "failed a check", "they were revoked",
                    "atoauth accounts add alice.test",
                ]
            )
            #expect(ended.stderr.components(separatedBy: "ended:").count == 2, "said once: \(ended.stderr)")
            #expect(try await world.sandbox.counters().revocations == 1)
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") && !$0.hasPrefix("refreshing/") })
        }
    }

    static let denyBrowser = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("deny_browser.py")
    static let forgedStateBrowser = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("forged_state_browser.py")
}

/// Checks the exit status and that stderr teaches: it says `saying`, never `never`, and shows no raw system text,
/// no doubled punctuation and no cut-off sentence.
func expectTeaching(
    _ result: CLIProcess.Result,
    exit status: Int32,
    saying expected: [String],
    never forbidden: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.status == status, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
    let progress = ["Open this URL", "http://", "https://", "Waiting for the browser"]
    let message = result.stderr.split(separator: "\n").filter { line in !progress.contains { line.hasPrefix($0) } }
        .joined(separator: "\n")
    for text in expected {
        #expect(message.contains(text), "missing “\(text)” in: \(message)", sourceLocation: sourceLocation)
    }
    for text in forbidden + ["errno", "Error Domain", "Optional(", "?.", "..", " .", "NIO", "HTTPClientError"] {
        #expect(!message.contains(text), "unexpected “\(text)” in: \(message)", sourceLocation: sourceLocation)
    }
    let last = message.trimmingCharacters(in: .whitespacesAndNewlines).last
    #expect(last.map { ".?!`)".contains($0) } ?? false, "cut off: \(message)", sourceLocation: sourceLocation)
}
