import Foundation
import Testing

/// The store passphrase asked on a terminal when `ATOAUTH_PASSPHRASE` does not give it.
@Suite("The store passphrase on a terminal", .serialized)
struct PassphrasePromptTests {
    @Test("a passphrase store asks for its passphrase without echo, again after a wrong one; scripts keep the variable")
    func prompt() async throws {
        try await CLIWorld.with { world in
            let (terminal, prompt) = try await Self.listOfPassphraseStore(world)
            try await terminal.waitFor(prompt)
            #expect(try !terminal.echoes(), "echo is off while the passphrase is read")
            terminal.type("wrong horse\n")
            // The wrong one is read (the line ends) and is being checked: the next try is typed ahead of its prompt.
            // Echo stays off in between, so the terminal does not show it.
            try await terminal.waitFor(prompt + "\r\n")
            #expect(try !terminal.echoes(), "echo stays off while the passphrase is checked")
            terminal.type("correct horse battery staple\n")
            try await terminal.waitFor("That passphrase does not open the store; try again.")
            try await terminal.waitFor(prompt, times: 2)
            let (status, screen) = try await terminal.finish()
            #expect(status == 0, "\(screen)")
            #expect(screen.contains("* alice.test "), "\(screen)")
            #expect(!screen.contains("horse"), "what is typed is never shown")
            #expect(try terminal.echoes(), "echo is back afterwards")

            // Without a terminal nothing is asked: the error says to set the variable.
            let piped = try await world.atoauth("accounts", "list", stdin: Data("correct horse battery staple\n".utf8))
            #expect(piped.status == 1, "\(piped.stderr)")
            #expect(piped.stderr.contains("Set ATOAUTH_PASSPHRASE"), "\(piped.stderr)")
            #expect(try await world.atoauth("accounts", "list", extraEnvironment: Self.passphrase).status == 0)

            // Shell completion on a terminal never asks (the shell would wait): it offers nothing instead.
            let completion = try TerminalProcess(
                [
                    "---completion", "accounts", "switch", "--", "positional@0", "3", "0", "atoauth", "accounts",
                    "switch", "",
                ],
                environment: world.environment
            )
            let (completed, offered) = try await completion.finish(timeout: .seconds(20))
            #expect(completed == 0 && !offered.contains("Passphrase"), "\(offered)")
            #expect(!offered.contains("alice.test"), "\(offered)")
        }
    }

    @Test("three wrong passphrases typed end the command, pointing at no variable that was not used")
    func threeWrong() async throws {
        try await CLIWorld.with { world in
            let (terminal, prompt) = try await Self.listOfPassphraseStore(world)
            for attempt in 1...3 {
                try await terminal.waitFor(prompt, times: attempt)
                terminal.type("wrong horse\n")
            }
            let (status, screen) = try await terminal.finish()
            #expect(status == 1, "\(screen)")
            #expect(screen.contains("does not open the store") && screen.contains("(3 tries)"), "\(screen)")
            #expect(!screen.contains("ATOAUTH_PASSPHRASE"), "\(screen)")
        }
    }

    static let passphrase = ["ATOAUTH_PASSPHRASE": "correct horse battery staple"]

    /// Signs alice in to a store protected by ``passphrase``, then starts `accounts list` on a terminal without it.
    static func listOfPassphraseStore(_ world: CLIWorld) async throws -> (TerminalProcess, prompt: String) {
        let added = try await world.atoauth("accounts", "add", "alice.test", extraEnvironment: passphrase)
        #expect(added.status == 0, "\(added.stderr)")
        let terminal = try TerminalProcess(["accounts", "list"], environment: world.environment)
        return (terminal, "Passphrase of the store at \(world.home.path) (it is not shown): ")
    }
}
