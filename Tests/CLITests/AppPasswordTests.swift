import Foundation
import Testing

@Suite("App-password sessions beside OAuth, through the CLI as a process", .serialized)
struct AppPasswordTests {
    @Test(
        "accounts add --app-password from the environment: kind everywhere, Bearer calls, no secret in any output or file"
    )
    func signInFromEnvironment() async throws {
        try await CLIWorld.with { world in
            let did = try #require(world.did("alice.test"))
            let password = try #require(world.sandbox.appPasswords["alice.test"])
            let added = try await world.signInWithAppPassword("alice.test")
            #expect(added.stdout == "Signed in as alice.test (\(did))\n")

            let list = try await world.atoauth("accounts", "list")
            #expect(list.stdout == "* alice.test \(did) \(world.sandbox.pds.absoluteString) app-password\n")
            let listed = try await world.atoauth("accounts", "list", "--json")
            let objects = try #require(
                try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
            )
            #expect(objects.first?["kind"] as? String == "app-password")

            let whoami = try await world.atoauth("whoami")
            #expect(whoami.status == 0, "\(whoami.stderr)")
            #expect(whoami.stdout == "alice.test \(did) \(world.sandbox.pds.absoluteString) app-password\n")
            let xrpc = try await world.atoauth("xrpc", "com.atproto.server.getSession")
            #expect(xrpc.status == 0, "\(xrpc.stderr)")
            #expect(xrpc.stdout.contains(did))
            let status = try await world.atoauth("accounts", "status", "--json")
            #expect(status.stdout.contains(#""kind":"app-password""#), "\(status.stdout)")
            let statusText = try await world.atoauth("accounts", "status")
            #expect(statusText.stdout.contains("kind         app-password"), "\(statusText.stdout)")
            #expect(statusText.stdout.contains("com.atproto.appPass  — an app password"), "\(statusText.stdout)")

            let counters = try await world.sandbox.counters()
            #expect(counters.legacySessionsCreated == 1)
            // Every call was Bearer with no proof: the strict PDS refused nothing and sent no DPoP challenge.
            #expect(counters.totalRejections == 0)
            #expect(counters.nonceChallengesSent == 0)

            let stored = try world.storedSession(did)
            #expect(stored["kind"] as? String == "app-password")
            #expect(try !world.storedNames().contains("dpop-key/\(did)"))
            let accessJwt = try #require(stored["accessToken"] as? String)
            let refreshJwt = try #require(stored["refreshToken"] as? String)
            let leaked = try world.leaks(
                [password, accessJwt, refreshJwt],
                in: [added, list, listed, whoami, xrpc, status, statusText]
            )
            #expect(leaked.isEmpty, "found in output or files: \(leaked.count) secret(s)")
        }
    }

    @Test("the password as one line on stdin; refused exits 1, none exits 2, nothing stored; -v logs no secret")
    func signInFromStandardInput() async throws {
        try await CLIWorld.with { world in
            let password = try #require(world.sandbox.appPasswords["bob.test"])
            let add = ["accounts", "add", "bob.test", "--app-password"]
            let wrong = try await world.atoauth(add, stdin: Data("aaaa-bbbb-cccc-dddd\n".utf8))
            #expect(wrong.status == 1, "\(wrong.stderr)")
            #expect(wrong.stderr.contains("AuthenticationRequired"), "\(wrong.stderr)")
            #expect(wrong.stderr.contains("Nothing was stored"))
            let none = try await world.atoauth(add, stdin: Data())
            #expect(none.status == 2, "\(none.stderr)")
            #expect(none.stderr.contains("ATOAUTH_APP_PASSWORD"))
            // A line past the limit is named as such, not taken for no password at all; it is not echoed.
            let long = String(repeating: "p", count: 1_500)
            let tooLong = try await world.atoauth(add, stdin: Data((long + "\n").utf8))
            #expect(tooLong.status == 2, "\(tooLong.stderr)")
            #expect(tooLong.stderr.contains("app password on standard input is longer than 1024 bytes"))
            #expect(!tooLong.stderr.contains(long) && !tooLong.stdout.contains(long))
            // The limit counts the line without a Windows line ending: 1024 bytes and CRLF reach the PDS (refused).
            let longest = try await world.atoauth(add, stdin: Data((String(long.prefix(1024)) + "\r\n").utf8))
            #expect(longest.status == 1, "\(longest.stderr)")
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") })

            let added = try await world.atoauth(["-v"] + add, stdin: Data((password + "\n").utf8))
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stderr.contains("com.atproto.server.createSession"), "-v logs the exchange: \(added.stderr)")
            let whoami = try await world.atoauth("-v", "whoami")
            #expect(whoami.stdout.hasPrefix("bob.test "))
            let stored = try world.storedSession(try #require(world.did("bob.test")))
            let tokens = [stored["accessToken"], stored["refreshToken"]].compactMap { $0 as? String }
            #expect(tokens.count == 2)
            #expect(try world.leaks([password] + tokens, in: [added, wrong, none, whoami]).isEmpty)
        }
    }

    @Test("a two-factor sign-in asks for the code: from ATOAUTH_AUTH_FACTOR, or the next stdin line; none exits 2")
    func twoFactor() async throws {
        try await CLIWorld.with(["--two-factor", "alice.test"]) { world in
            let password = try #require(world.sandbox.appPasswords["alice.test"])
            let code = try #require(world.sandbox.signInCodes["alice.test"])
            let missing = try await world.atoauth(
                "accounts",
                "add",
                "alice.test",
                "--app-password",
                stdin: Data((password + "\n").utf8)
            )
            #expect(missing.status == 2, "\(missing.stderr)")
            #expect(missing.stderr.contains("ATOAUTH_AUTH_FACTOR"), "\(missing.stderr)")

            let piped = try await world.atoauth(
                "accounts",
                "add",
                "alice.test",
                "--app-password",
                stdin: Data((password + "\n" + code + "\n").utf8)
            )
            #expect(piped.status == 0, "\(piped.stderr)")
            #expect(piped.stderr.contains("sign-in code"))

            let fromEnvironment = try await world.atoauth(
                "accounts",
                "add",
                "alice.test",
                "--app-password",
                extraEnvironment: ["ATOAUTH_APP_PASSWORD": password, "ATOAUTH_AUTH_FACTOR": code]
            )
            #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
            // Signing in again replaced the first session and ended it at the PDS.
            #expect(try await world.sandbox.counters().legacySessionsDeleted == 1)
            #expect(try world.leaks([password, code], in: [missing, piped, fromEnvironment]).isEmpty)
        }
    }

    @Test("20 concurrent whoami processes on an expired access JWT: exactly one refreshSession, no replay")
    func concurrentRefresh() async throws {
        try await CLIWorld.with(["--access-token-lifetime", "2"]) { world in
            try await world.signInWithAppPassword("alice.test")
            try await world.sandbox.expireAccessTokens()
            let running = try (0..<20).map { _ in try CLIProcess.start(["whoami"], environment: world.environment) }
            var results: [CLIProcess.Result] = []
            for process in running { results.append(try await process.finish(timeout: .seconds(120))) }
            for result in results { #expect(result.status == 0, "\(result.stderr)") }
            let counters = try await world.sandbox.counters()
            #expect(counters.legacyRefreshesSucceeded == 1)
            #expect(counters.refreshTokenReplays == 0)
            #expect(counters.refreshGrantsSucceeded == 0)
        }
    }

    @Test("a session the PDS ended: whoami exits 3 and says how to sign in again (app password or OAuth)")
    func endedAtServer() async throws {
        try await CLIWorld.with { world in
            try await world.signInWithAppPassword("alice.test")
            let did = try #require(world.did("alice.test"))
            let refreshJwt = try #require(try world.storedSession(did)["refreshToken"] as? String)
            try await world.deleteSessionAtServer(refreshJwt: refreshJwt)
            let whoami = try await world.atoauth("whoami")
            #expect(whoami.status == 3, "\(whoami.stderr)")
            #expect(whoami.stderr.contains("alice.test was signed out by the server"), "\(whoami.stderr)")
            #expect(whoami.stderr.contains("`atoauth accounts add alice.test --app-password`"), "\(whoami.stderr)")
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") })
        }
    }

    @Test("accounts remove ends the app-password session at the PDS with deleteSession")
    func remove() async throws {
        try await CLIWorld.with { world in
            try await world.signInWithAppPassword("alice.test")
            let removed = try await world.atoauth("accounts", "remove", "alice.test")
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(removed.stdout.contains("revocation: revoked"), "\(removed.stdout)")
            #expect(try await world.sandbox.counters().legacySessionsDeleted == 1)
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") })

            // A session already ended at the PDS is removed here anyway, and the unconfirmed deletion is said.
            try await world.signInWithAppPassword("alice.test")
            let did = try #require(world.did("alice.test"))
            let refreshJwt = try #require(try world.storedSession(did)["refreshToken"] as? String)
            try await world.deleteSessionAtServer(refreshJwt: refreshJwt)
            let unconfirmed = try await world.atoauth("accounts", "remove", "alice.test")
            #expect(unconfirmed.status == 0, "\(unconfirmed.stderr)")
            #expect(
                unconfirmed.stderr.contains(
                    "Removed here, but the PDS did not confirm ending the app-password session"
                ),
                "\(unconfirmed.stderr)"
            )
            #expect(unconfirmed.stderr.contains("delete the app password in the account's settings (App Passwords)"))
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") })
        }
    }

    @Test("accounts upgrade moves the account to OAuth, ends the app-password session, keeps the active account")
    func upgrade() async throws {
        try await CLIWorld.with { world in
            let alice = try #require(world.did("alice.test"))
            try await world.signInWithAppPassword("alice.test")
            let oldRefreshJwt = try #require(try world.storedSession(alice)["refreshToken"] as? String)
            try await world.signIn("bob.test")
            let upgraded = try await world.atoauth("accounts", "upgrade", "alice.test")
            #expect(upgraded.status == 0, "\(upgraded.stderr)")
            #expect(upgraded.stdout == "Upgraded alice.test (\(alice)) to OAuth\n")
            #expect(
                upgraded.stderr.contains("delete it in the account's settings (App Passwords)"),
                "\(upgraded.stderr)"
            )
            #expect(try await world.sandbox.counters().legacySessionsDeleted == 1)
            #expect(try world.storedSession(alice)["kind"] as? String == "oauth")
            #expect(try world.storedNames().contains("dpop-key/\(alice)"))
            let list = try await world.atoauth("accounts", "list")
            #expect(list.stdout.contains("  alice.test \(alice) \(world.sandbox.pds.absoluteString) oauth\n"))
            #expect(list.stdout.contains("* bob.test "), "bob stays the active account: \(list.stdout)")
            let whoami = try await world.atoauth("whoami", "--account", "alice.test")
            #expect(whoami.status == 0, "\(whoami.stderr)")
            #expect(whoami.stdout.hasSuffix(" oauth\n"))
            // The ended app-password session is gone at the PDS too.
            let reuse = try await world.atoauth("accounts", "upgrade", "alice.test")
            #expect(reuse.status == 2, "\(reuse.stderr)")
            #expect(reuse.stderr.contains("already signs in with OAuth"), "\(reuse.stderr)")
            #expect(try world.leaks([oldRefreshJwt], in: [upgraded, list, whoami, reuse]).isEmpty)
        }
    }

    @Test("--app-password keeps an OAuth session unless --replace: refused before the password is read, exit 2")
    func appPasswordKeepsOAuth() async throws {
        try await CLIWorld.with { world in
            let alice = try #require(world.did("alice.test"))
            let password = try #require(world.sandbox.appPasswords["alice.test"])
            try await world.signIn("alice.test")
            let before = try world.storedSession(alice)
            let refused = try await world.atoauth(
                "accounts",
                "add",
                "alice.test",
                "--app-password",
                stdin: Data((password + "\n").utf8)
            )
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(
                refused.stderr.contains("alice.test signs in here with OAuth, granted atproto"),
                "\(refused.stderr)"
            )
            #expect(refused.stderr.contains("full rights instead of the permissions granted."))
            #expect(refused.stderr.contains("Add --replace to replace it anyway"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("App password for"), "refused before the password is asked for")
            #expect(try world.storedSession(alice)["refreshToken"] as? String == before["refreshToken"] as? String)
            var counters = try await world.sandbox.counters()
            #expect(counters.legacySessionsCreated == 0 && counters.revocations == 0)

            let misplaced = try await world.atoauth("accounts", "add", "alice.test", "--replace")
            #expect(misplaced.status == 2 && misplaced.stderr.contains("--replace goes with --app-password"))

            let replaced = try await world.atoauth(
                "accounts",
                "add",
                "alice.test",
                "--app-password",
                "--replace",
                stdin: Data((password + "\n").utf8)
            )
            #expect(replaced.status == 0, "\(replaced.stderr)")
            #expect(replaced.stderr.contains("The previous session of alice.test was replaced and its tokens revoked"))
            #expect(try world.storedSession(alice)["kind"] as? String == "app-password")
            counters = try await world.sandbox.counters()
            #expect(counters.legacySessionsCreated == 1 && counters.revocations >= 1)
        }
    }

    @Test("a denied upgrade leaves the app-password session as it was; an unknown account exits 3")
    func failedUpgrade() async throws {
        try await CLIWorld.with(autoApprove: false) { world in
            let alice = try #require(world.did("alice.test"))
            try await world.signInWithAppPassword("alice.test")
            let before = try world.storedSession(alice)
            let denied = try await world.atoauth(
                "accounts",
                "upgrade",
                "alice.test",
                extraEnvironment: ["BROWSER": "python3 \(ErrorMessageTests.denyBrowser.path)"]
            )
            #expect(denied.status == 1, "\(denied.stderr)")
            #expect(denied.stderr.contains("access_denied"), "\(denied.stderr)")
            let after = try world.storedSession(alice)
            #expect(after["kind"] as? String == "app-password")
            #expect(after["refreshToken"] as? String == before["refreshToken"] as? String)
            #expect(try await world.sandbox.counters().legacySessionsDeleted == 0)
            #expect(try await world.atoauth("whoami").stdout.hasSuffix(" app-password\n"))

            let unknown = try await world.atoauth("accounts", "upgrade", "bob.test")
            #expect(unknown.status == 3, "\(unknown.stderr)")
            #expect(unknown.stderr.contains("No signed-in account is bob.test"), "\(unknown.stderr)")
        }
    }

    @Test("--app-password takes none of the browser sign-in's options, and needs a handle or DID, not a server")
    func usage() async throws {
        try await CLIWorld.with { world in
            // Refused whatever the value, the default's too: a browser option says the sign-in was misunderstood.
            let browserOptions = [
                ["--no-browser"], ["--timeout", "300"], ["--scope", "atproto transition:generic"],
                ["--callback-port", "8080"],
            ]
            for options in browserOptions {
                let result = try await world.atoauth(
                    ["accounts", "add", "alice.test", "--app-password"] + options,
                    extraEnvironment: ["ATOAUTH_APP_PASSWORD": "aaaa-bbbb-cccc-dddd"]
                )
                #expect(result.status == 2, "\(options)")
                #expect(result.stderr.contains("--app-password signs in without a browser"), "\(result.stderr)")
            }
            let server = try await world.atoauth(
                "accounts",
                "add",
                world.sandbox.pds.absoluteString,
                "--app-password",
                extraEnvironment: ["ATOAUTH_APP_PASSWORD": "aaaa-bbbb-cccc-dddd"]
            )
            #expect(server.status == 2, "\(server.stderr)")
            #expect(server.stderr.contains("needs the account's handle or DID"), "\(server.stderr)")
        }
    }
}
