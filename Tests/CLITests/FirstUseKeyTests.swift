import Foundation
import Testing

/// The first use on a terminal: the person chooses a passphrase for the new store (typed twice) or a key file.
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
            let first = try TerminalProcess(["accounts", "list"], environment: environment)
            try await first.waitFor("Choose a passphrase for it, or press Enter to keep its key in the file")
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
            #expect(screen.contains("No accounts"), "\(screen)")
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
            let first = try TerminalProcess(["accounts", "list"], environment: environment)
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

    @Test("without a terminal nothing is asked: a new store gets its key file, as scripts expect")
    func scripts() async throws {
        try await ScratchHome.with { scratch in
            let result = try await CLIProcess.run(["accounts", "list"], environment: Self.environment(scratch))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("passphrase"), "\(result.stderr)")
            let keyFile = scratch.directory.appendingPathComponent(".config/atoauth/store.key")
            #expect(FileManager.default.fileExists(atPath: keyFile.path))
        }
    }

    @Test("three mismatched pairs create nothing: exit 2, and the next run asks again")
    func mismatches() async throws {
        try await ScratchHome.with { scratch in
            let environment = Self.environment(scratch)
            let terminal = try TerminalProcess(["accounts", "list"], environment: environment)
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
}
