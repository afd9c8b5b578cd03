import Foundation
import Testing

/// Help with account names: the signed-in account a name probably means, `switch` alone, and shell completion.
@Suite("Account names get help, through the CLI as a process", .serialized)
struct AccountNameHelpTests {
    @Test("a name that matches no signed-in account suggests the one it probably means, not a sign-in")
    func suggestion() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            try await world.signIn("bob.test")
            for arguments in [
                ["accounts", "switch", "alice"], ["accounts", "status", "alic.test"],
                ["whoami", "--account", "@alice"],
            ] {
                let result = try await world.atoauth(arguments)
                #expect(result.status == 3, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("Did you mean alice.test?"), "\(arguments): \(result.stderr)")
                #expect(!result.stderr.contains("accounts add"), "\(arguments): \(result.stderr)")
            }
            let far = try await world.atoauth("accounts", "switch", "carol.test")
            #expect(far.status == 3 && far.stderr.contains("Sign in with `atoauth accounts add carol.test`"))

            let fromEnvironment = try await world.atoauth("whoami", extraEnvironment: ["ATOAUTH_ACCOUNT": "alice"])
            #expect(fromEnvironment.status == 3)
            #expect(
                fromEnvironment.stderr.contains("No signed-in account is alice (the name comes from ATOAUTH_ACCOUNT)"),
                "\(fromEnvironment.stderr)"
            )
            let unknownFromEnvironment = try await world.atoauth(
                "whoami",
                extraEnvironment: ["ATOAUTH_ACCOUNT": "zed.test"]
            )
            #expect(
                unknownFromEnvironment.stderr.contains("zed.test (the name comes from ATOAUTH_ACCOUNT)"),
                "\(unknownFromEnvironment.stderr)"
            )
        }
    }

    @Test("switch alone: with two accounts it switches to the other, with one or three it lists them (exit 2)")
    func switchAlone() async throws {
        let accounts = ["alice.test", "bob.test", "carol.test"].flatMap { ["--test-account", $0] }
        try await CLIWorld.with(accounts) { world in
            let none = try await world.atoauth("accounts", "switch")
            #expect(none.status == 3, "\(none.stderr)")
            try await world.signIn("alice.test")
            let one = try await world.atoauth("accounts", "switch")
            #expect(one.status == 2 && one.stderr.contains("Only one account is signed in"), "\(one.stderr)")
            try await world.signIn("bob.test")
            let toAlice = try await world.atoauth("accounts", "switch")
            #expect(toAlice.status == 0, "\(toAlice.stderr)")
            #expect(toAlice.stdout.hasPrefix("Active account: alice.test "), "\(toAlice.stdout)")
            let toBob = try await world.atoauth("accounts", "switch")
            #expect(toBob.stdout.hasPrefix("Active account: bob.test "), "\(toBob.stdout)")
            try await world.signIn("carol.test")
            let three = try await world.atoauth("accounts", "switch")
            #expect(three.status == 2, "\(three.stderr)")
            #expect(three.stderr.contains("3 accounts are signed in"), "\(three.stderr)")
            #expect(three.stderr.contains("  * carol.test\n") && three.stderr.contains("    alice.test\n"))
        }
    }

    @Test(
        "bash completion offers the signed-in handles after switch, remove, status and --account; directories after --home"
    )
    func completion() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            try await world.signIn("bob.test")
            let executable = try #require(CLIProcess.executable)
            let directory = executable.deletingLastPathComponent().path
            func complete(_ words: [String]) async throws -> [String] {
                let line = words.map { "'\($0)'" }.joined(separator: " ")
                let script = """
                    source <(atoauth --generate-completion-script bash)
                    COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1); COMP_LINE="${COMP_WORDS[*]}"
                    COMP_POINT=${#COMP_LINE}
                    _atoauth atoauth "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                    printf '%s\\n' "${COMPREPLY[@]}"
                    """
                var environment = world.environment
                environment["PATH"] = directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
                let result = try await CLIProcess.run(
                    ["-c", script],
                    environment: environment,
                    executable: URL(fileURLWithPath: "/bin/bash")
                )
                #expect(result.status == 0, "\(result.stderr)")
                return result.stdout.split(separator: "\n").map(String.init).sorted()
            }
            #expect(try await complete(["atoauth", "accounts", "switch", ""]) == ["alice.test", "bob.test"])
            #expect(try await complete(["atoauth", "accounts", "remove", "b"]) == ["bob.test"])
            #expect(try await complete(["atoauth", "accounts", "status", ""]) == ["alice.test", "bob.test"])
            #expect(try await complete(["atoauth", "whoami", "--account", "al"]) == ["alice.test"])
            try FileManager.default.createDirectory(
                at: world.directory.appendingPathComponent("somewhere"),
                withIntermediateDirectories: true
            )
            let directories = try await complete([
                "atoauth", "accounts", "list", "--home", world.directory.path + "/so",
            ])
            #expect(directories == [world.directory.path + "/somewhere"], "\(directories)")
        }
    }
}
