import ATOAuthTesting
import Foundation
import Testing

/// The first use on a terminal: a command about to store something (a sign-in, a new client key) lets the person
/// choose a passphrase for the new store (typed twice) or a key file; a command that only reads asks nothing and
/// creates nothing.
@Suite("Choosing the store's key on first use", .serialized)
struct FirstUseKeyTests {
    /// A scratch HOME and atoauth home with no key file chosen, as on a new machine.
    static func environment(_ scratch: ScratchHome) -> [String: String] {
        var environment = scratch.environment
        environment["ATOAUTH_KEY_FILE"] = nil
        return environment
    }

    @Test("a passphrase typed twice (after one mismatch) protects the new store, without a key file; it is asked later")
    func passphrase() async throws {
        try await ScratchHome.with { scratch in
            let environment = Self.environment(scratch)
            let first = try TerminalProcess(["client", "keygen"], environment: environment)
            try await first.waitFor("Choose a passphrase for it, or press Enter to keep its key in the file")
            try await first.waitFor("every command that opens the store on a terminal asks for it")
            try await first.waitFor("New passphrase for the store (it is not shown): ")
            #expect(try !first.echoes())
            first.type("tomato soup\n")
            try await first.waitFor("The same passphrase again (it is not shown): ")
            first.type("tomato soap\n")
            try await first.waitFor("The two passphrases differ; choose one again.")
            first.type("tomato soup\n")
            first.type("tomato soup\n")
            let (status, screen) = try await first.finish()
            #expect(status == 0, "\(screen)")
            #expect(screen.contains("Added the client key"), "\(screen)")
            #expect(!screen.contains("tomato"))
            let keyFile = scratch.directory.appendingPathComponent(".config/atoauth/store.key")
            #expect(!FileManager.default.fileExists(atPath: keyFile.path), "a passphrase store has no key file")

            let again = try TerminalProcess(["accounts", "list"], environment: environment)
            try await again.waitFor("Passphrase of the store at \(scratch.home.path) (it is not shown): ")
            again.type("tomato soup\n")
            let (status2, screen2) = try await again.finish()
            #expect(status2 == 0, "\(screen2)")
            #expect(!screen2.contains("New passphrase"), "asked once, on first use")
        }
    }

    @Test("Enter keeps the key in a key file, and nothing is asked again")
    func keyFile() async throws {
        try await ScratchHome.with { scratch in
            let environment = Self.environment(scratch)
            let first = try TerminalProcess(["client", "keygen"], environment: environment)
            try await first.waitFor("New passphrase for the store (it is not shown): ")
            first.type("\n")
            let (status, screen) = try await first.finish()
            #expect(status == 0, "\(screen)")
            let keyFile = scratch.directory.appendingPathComponent(".config/atoauth/store.key")
            #expect(FileManager.default.fileExists(atPath: keyFile.path))

            let again = try TerminalProcess(["accounts", "list"], environment: environment)
            let (status2, screen2) = try await again.finish()
            #expect(status2 == 0 && !screen2.contains("passphrase"), "\(screen2)")
        }
    }

    @Test("without a terminal nothing is asked: reading or a failed sign-in creates nothing; a new store gets its key")
    func scripts() async throws {
        try await ScratchHome.with { scratch in
            let environment = Self.environment(scratch)
            let listed = try await CLIProcess.run(["accounts", "list"], environment: environment)
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stderr.contains("No accounts"), "\(listed.stderr)")
            #expect(try Self.contents(of: scratch).isEmpty, "a command that only reads creates nothing")
            // A sign-in that fails before it stores anything creates nothing either.
            let refused = try await CLIProcess.run(["accounts", "add", "nobody.invalid"], environment: environment)
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(try Self.contents(of: scratch).isEmpty, "a sign-in that stored nothing created nothing")

            let result = try await CLIProcess.run(["client", "keygen"], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("passphrase"), "\(result.stderr)")
            let keyFile = scratch.directory.appendingPathComponent(".config/atoauth/store.key")
            #expect(FileManager.default.fileExists(atPath: keyFile.path))
        }
    }

    @Test(
        "with no store yet, a command that only reads asks nothing on a terminal, says no account is here, creates nothing",
        arguments: [
            (["accounts", "list"], Int32(0), "No accounts. Sign in with: atoauth accounts add <handle>"),
            (["accounts", "status", "--all"], Int32(0), "No accounts. Sign in with: atoauth accounts add <handle>"),
            (["accounts", "status"], Int32(3), "No account is signed in here."),
            (["whoami"], Int32(3), "No account is signed in here."),
            (["doctor"], Int32(2), "No account is signed in here"),
        ]
    )
    func readOnly(arguments: [String], exit: Int32, saying: String) async throws {
        try await ScratchHome.with { scratch in
            let terminal = try TerminalProcess(arguments, environment: Self.environment(scratch))
            let (status, screen) = try await terminal.finish()
            #expect(status == exit, "\(screen)")
            #expect(screen.contains(saying), "\(screen)")
            #expect(!screen.contains("passphrase"), "\(screen)")
            let created = try Self.contents(of: scratch)
            #expect(created.isEmpty, "\(created)")
        }
    }

    @Test("Ctrl-C at the first-use prompt creates nothing, not even a directory, and the choice is offered again")
    func interrupted() async throws {
        try await ScratchHome.with { scratch in
            let environment = Self.environment(scratch)
            for _ in 1...2 {
                let terminal = try TerminalProcess(["client", "keygen"], environment: environment)
                try await terminal.waitFor("New passphrase for the store (it is not shown): ")
                try await Self.interrupt(terminal.process)
                let (status, screen) = try await terminal.finish()
                #expect(status == 130, "\(screen)")
                #expect(screen.contains("Cancelled; nothing was stored."), "\(screen)")
                #expect(try terminal.echoes(), "echo is back after Ctrl-C")
                let created = try Self.contents(of: scratch)
                #expect(created.isEmpty, "\(created)")
            }
        }
    }

    @Test("a sign-in on a terminal asks before it starts; the passphrase chosen protects the account it stores")
    func signIn() async throws {
        try await CLIWorld.with { world in
            var environment = world.environment
            environment["ATOAUTH_KEY_FILE"] = nil
            let terminal = try TerminalProcess(["accounts", "add", "alice.test"], environment: environment)
            let screen = try await terminal.waitFor("New passphrase for the store (it is not shown): ")
            #expect(screen.contains("every command that opens the store on a terminal asks for it"), "\(screen)")
            #expect(!screen.contains("Resolving alice.test"), "asked before the sign-in starts: \(screen)")
            terminal.type("green tea\n")
            try await terminal.waitFor("The same passphrase again (it is not shown): ")
            terminal.type("green tea\n")
            let (status, output) = try await terminal.finish()
            #expect(status == 0, "\(output)")
            #expect(output.contains("Signed in as alice.test"), "\(output)")
            #expect(!output.contains("green tea"))
            let keyFile = world.directory.appendingPathComponent(".config/atoauth/store.key")
            #expect(!FileManager.default.fileExists(atPath: keyFile.path), "a passphrase store has no key file")

            var script = environment
            script["ATOAUTH_PASSPHRASE"] = "green tea"
            let listed = try await CLIProcess.run(["accounts", "list"], environment: script)
            #expect(listed.status == 0 && listed.stdout.contains("alice.test"), "\(listed.stderr)")
        }
    }

    @Test("three mismatched pairs create nothing: exit 2, and the next run asks again")
    func mismatches() async throws {
        try await ScratchHome.with { scratch in
            let environment = Self.environment(scratch)
            let terminal = try TerminalProcess(["client", "keygen"], environment: environment)
            try await terminal.waitFor("New passphrase for the store (it is not shown): ")
            terminal.type("first 1\nsecond 1\n")
            try await terminal.waitFor("The two passphrases differ; choose one again.")
            terminal.type("first 2\nsecond 2\nfirst 3\nsecond 3\n")
            let (status, screen) = try await terminal.finish()
            #expect(status == 2, "\(screen)")
            #expect(screen.contains("The passphrases typed did not match, so no store was created."), "\(screen)")
            #expect(!FileManager.default.fileExists(atPath: scratch.home.appendingPathComponent("keystore.json").path))
        }
    }

    /// Every file and directory under the scratch directory, as paths relative to it.
    static func contents(of scratch: ScratchHome) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: scratch.directory.path).sorted()
    }

    /// Sends SIGINT, as Ctrl-C does, once atoauth catches it (`SigCgt` in `/proc/<pid>/status`): before, the signal
    /// would kill the process rather than cancel the command.
    static func interrupt(_ process: ChildProcess) async throws {
        let statusFile = "/proc/\(process.processIdentifier)/status"
        try await Waiting.until("atoauth to catch SIGINT") {
            try #require(process.isRunning, "atoauth ended before it caught SIGINT")
            guard let text = try? String(contentsOfFile: statusFile, encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
                let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return false }
            return mask & (1 << UInt64(SIGINT - 1)) != 0
        }
        process.signal(SIGINT)
    }
}
