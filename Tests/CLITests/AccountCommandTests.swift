import ATOAuthTesting
import Foundation
import Testing

@Suite("The CLI signs in and manages accounts, as real processes against the sandbox", .serialized)
struct AccountCommandTests {
    @Test("accounts add signs in through $BROWSER, makes the account active, and whoami confirms it")
    func signInAndWhoami() async throws {
        try await CLIWorld.with { world in
            let added = try await world.signIn("alice.test")
            let did = try #require(world.did("alice.test"))
            #expect(added.stdout == "Signed in as alice.test (\(did))\n")
            #expect(added.stderr.contains("Waiting for the browser… press Ctrl-C to cancel."))
            #expect(added.stderr.contains(world.sandbox.authorizationServer.absoluteString))

            let list = try await world.atoauth("accounts", "list")
            #expect(list.status == 0)
            #expect(list.stdout == "* alice.test \(did) \(world.sandbox.pds.absoluteString) oauth\n")

            let whoami = try await world.atoauth("whoami")
            #expect(whoami.status == 0, "\(whoami.stderr)")
            #expect(whoami.stdout == "alice.test \(did) \(world.sandbox.pds.absoluteString) oauth\n")

            let json = try await world.atoauth("whoami", "--json")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: String]
            )
            #expect(
                object == [
                    "did": did, "handle": "alice.test", "pds": world.sandbox.pds.absoluteString, "kind": "oauth",
                ]
            )
        }
    }

    @Test("two accounts: list marks the active one, switch changes it, --account acts without switching")
    func twoAccounts() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            try await world.signIn("bob.test")
            let alice = try #require(world.did("alice.test"))
            let bob = try #require(world.did("bob.test"))

            let list = try await world.atoauth("accounts", "list", "--json")
            let accounts = try #require(
                try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
            )
            #expect(accounts.count == 2)
            for account in accounts {
                #expect(Set(account.keys).isSuperset(of: ["did", "handle", "pds", "issuer", "scope", "active"]))
                #expect(account["active"] as? Bool == (account["did"] as? String == bob))
                #expect(account["issuer"] as? String == world.sandbox.issuer)
            }
            #expect(try await world.atoauth("whoami").stdout.hasPrefix("bob.test "))
            #expect(try await world.atoauth("whoami", "--account", "alice.test").stdout.hasPrefix("alice.test "))
            #expect(
                try await world.atoauth("whoami", extraEnvironment: ["ATOAUTH_ACCOUNT": alice]).stdout
                    .hasPrefix("alice.test ")
            )
            #expect(try await world.atoauth("whoami").stdout.hasPrefix("bob.test "))

            let switched = try await world.atoauth("accounts", "switch", "alice.test")
            #expect(switched.status == 0)
            #expect(try await world.atoauth("whoami").stdout.hasPrefix("alice.test "))
            #expect(try await world.atoauth("accounts", "list").stdout.contains("* alice.test \(alice)"))
        }
    }

    @Test("processes adding, switching and calling at the same time lose no account and leave a consistent store")
    func concurrentProcesses() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            var running = [
                try CLIProcess.start(["accounts", "add", "bob.test"], environment: world.environment)
            ]
            for index in 0..<12 {
                let arguments =
                    switch index % 3 {
                    case 0: ["accounts", "switch", "alice.test"]
                    case 1: ["whoami", "--account", "alice.test"]
                    default: ["accounts", "list", "--json"]
                    }
                running.append(try CLIProcess.start(arguments, environment: world.environment))
            }
            var results: [CLIProcess.Result] = []
            for process in running { results.append(try await process.finish(timeout: .seconds(120))) }
            for result in results { #expect(result.status == 0, "\(result.stderr)") }

            let list = try await world.atoauth("accounts", "list", "--json")
            let accounts = try #require(
                try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
            )
            #expect(Set(accounts.compactMap { $0["handle"] as? String }) == ["alice.test", "bob.test"])
            #expect(accounts.filter { $0["active"] as? Bool == true }.count == 1)
            #expect(try await world.atoauth("whoami", "--account", "bob.test").status == 0)
            #expect(try await world.atoauth("whoami", "--account", "alice.test").status == 0)
        }
    }

    @Test("accounts remove revokes at the server and deletes the session and key; then whoami exits 3")
    func remove() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let did = try #require(world.did("alice.test"))
            let removed = try await world.atoauth("accounts", "remove", "alice.test")
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(removed.stdout.contains("revocation: revoked"))
            #expect(try await world.sandbox.counters().revocations >= 1)
            #expect(try world.storedNames().filter { $0.contains(did) }.isEmpty)
            let whoami = try await world.atoauth("whoami")
            #expect(whoami.status == 3)
            #expect(whoami.stderr.contains("accounts add"))
            #expect(try await world.atoauth("accounts", "switch", "alice.test").status == 3)
        }
    }

    @Test("a usage error exits 2, a refused destination exits 4 and stores nothing")
    func exitCodes() async throws {
        try await CLIWorld.with { world in
            #expect(try await world.atoauth("xrpc", "not an nsid").status == 2)
            #expect(try await world.atoauth("accounts", "add").status == 2)
            #expect(try await world.atoauth("accounts", "add", "alice.test", "--callback-port", "70000").status == 2)
            #expect(try await world.atoauth("accounts", "add", "alice.test", "--plc-directory", "ftp://x").status == 2)
            let refused = try await world.atoauth("accounts", "add", "https://10.0.0.1", "--no-browser")
            #expect(refused.status == 4, "\(refused.stderr)")
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") && !$0.hasPrefix("pending/") })
            #expect(try await world.atoauth("whoami").status == 3)
            #expect(try await world.atoauth("--help").status == 0)
        }
    }

    @Test("a mistyped subcommand gets a suggestion; --json errors are JSON; a negative number meets its own rule")
    func usageHelp() async throws {
        try await CLIWorld.with { world in
            for (arguments, suggestion) in [
                (["whomai"], "atoauth whoami"), (["acounts", "list"], "atoauth accounts"),
                (["accounts", "swtich", "bob.test"], "atoauth accounts switch"),
                (["client", "keygn", "--json"], "atoauth client keygen"),
                (["client", "keygn", "-v"], "atoauth client keygen"),
                (["gateway", "token", "creat", "x"], "atoauth gateway token create"),
                (["gateway", "tokens"], "atoauth gateway token"),
            ] {
                let result = try await CLIProcess.run(arguments, environment: world.environment)
                #expect(result.status == 2)
                #expect(result.stderr.contains("Did you mean `\(suggestion)`?"), "\(result.stderr)")
            }
            // With --json, an error is one JSON object on stderr: error, message, exit.
            for (arguments, status, code) in [
                (["whoami", "--json"], 3, "sign_in_needed"), (["whomai", "--json"], 2, "usage"),
                (["accounts", "add", "alice.test", "--scope", "atproto Repo:x", "--json"], 2, "usage"),
            ] {
                let result = try await CLIProcess.run(arguments, environment: world.environment)
                #expect(result.status == Int32(status))
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any],
                    "\(result.stderr)"
                )
                #expect(object["error"] as? String == code)
                #expect(object["exit"] as? Int == status)
                #expect((object["message"] as? String)?.isEmpty == false)
            }
            let negative = try await world.atoauth("accounts", "add", "alice.test", "--timeout", "-5")
            #expect(negative.status == 2)
            #expect(negative.stderr.contains("--timeout must be"), "\(negative.stderr)")
        }
    }

    @Test("Ctrl-C while waiting for the browser cancels cleanly and leaves no pending sign-in")
    func interrupt() async throws {
        try await CLIWorld.with { world in
            let running = try CLIProcess.start(
                ["accounts", "add", "alice.test", "--no-browser"],
                environment: world.environment
            )
            let result = try await world.interruptWaitingSignIn(running)
            #expect(result.stderr.contains("Cancel"))
        }
    }
}
