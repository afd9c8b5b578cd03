import Foundation
import Testing

@Suite("One unreadable session does not hide the other accounts", .serialized)
struct UnreadableSessionTests {
    @Test("a corrupted session is named by list and status, found by DID or handle, and removed; others work")
    func corruptedSession() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            try await world.signIn("bob.test")
            let alice = try #require(world.did("alice.test"))
            let bob = try #require(world.did("bob.test"))
            try corruptEntry(in: world, named: "session/\(bob)")

            let list = try await world.atoauth("accounts", "list")
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout.contains("alice.test \(alice)"))
            #expect(!list.stdout.contains(bob))
            #expect(list.stderr.contains("! \(bob) (the stored session is unreadable:"))
            #expect(list.stderr.contains("atoauth accounts remove \(bob)"))

            let json = try await world.atoauth("accounts", "list", "--json")
            #expect(json.status == 0, "\(json.stderr)")
            let objects = try #require(
                try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
            )
            #expect(objects.contains { $0["did"] as? String == alice && $0["handle"] as? String == "alice.test" })
            #expect(objects.contains { $0["did"] as? String == bob && $0["unreadable"] as? Bool == true })

            let whoami = try await world.atoauth("whoami", "--account", "alice.test")
            #expect(whoami.status == 0, "\(whoami.stderr)")
            #expect(whoami.stdout.hasPrefix("alice.test \(alice)"))

            // Named by its DID, or by its handle (kept by the handle index through the listings above), the damaged
            // account is said to be damaged (exit 1), not absent (exit 3).
            for command in [
                ["whoami", "--account", bob], ["accounts", "switch", bob], ["whoami", "--account", "bob.test"],
                ["accounts", "switch", "bob.test"],
            ] {
                let damaged = try await world.atoauth(command)
                #expect(damaged.status == 1, "\(command): \(damaged.stderr)")
                #expect(damaged.stderr.contains("session%2F\(bob)") || damaged.stderr.contains("session/\(bob)"))
            }

            let status = try await world.atoauth("accounts", "status", "--all")
            #expect(status.status == 0, "\(status.stderr)")
            #expect(status.stdout.contains("alice.test") && status.stderr.contains("! \(bob) (the stored session"))
            let statusJSON = try await world.atoauth("accounts", "status", "--all", "--json")
            let statuses = try #require(
                try JSONSerialization.jsonObject(with: Data(statusJSON.stdout.utf8)) as? [[String: Any]]
            )
            #expect(statuses.count == 2, "\(statusJSON.stdout)")
            #expect(statuses.contains { $0["did"] as? String == bob && $0["unreadable"] as? Bool == true })

            let removed = try await world.atoauth("accounts", "remove", "bob.test")
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(removed.stdout.contains(bob))

            let names = try world.storedNames()
            #expect(!names.contains { $0.hasPrefix("session/") && $0.hasSuffix(bob) })
            #expect(!names.contains { $0.hasPrefix("dpop-key/") && $0.hasSuffix(bob) })
            #expect(names.contains("session/\(alice)"))
            let after = try await world.atoauth("accounts", "list")
            #expect(after.status == 0)
            #expect(!after.stderr.contains(bob))
        }
    }

    @Test("the doctor fails store-files for an account whose session cannot be read, by handle and by DID")
    func doctorNamesDamagedSession() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let alice = try #require(world.did("alice.test"))
            try corruptEntry(in: world, named: "session/\(alice)")
            for target in ["alice.test", alice] {
                let (status, checks, result) = try await DoctorTests.diagnose(world, [target])
                #expect(status == 1, "\(result.stdout)")
                #expect(checks["store-files"]?["status"] as? String == "fail", "\(checks["store-files"] ?? [:])")
                #expect((checks["store-files"]?["seen"] as? String)?.contains("cannot be read") == true)
                #expect(checks["session-live"]?["status"] as? String == "skip")
            }
        }
    }

    /// Flips bytes at the end of the encrypted file of the entry `name`, inside the ciphertext and its tag.
    @Test("a store that lost its keystore.json is refused by the commands that only read, not taken for no store")
    func lostMetadata() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            try FileManager.default.removeItem(at: world.home.appendingPathComponent("keystore.json"))
            for command in [["accounts", "list"], ["whoami"], ["accounts", "status", "--all"]] {
                let result = try await world.atoauth(command)
                #expect(result.status == 1, "\(command): \(result.stderr)")
                #expect(result.stderr.contains("keystore.json is missing"), "\(command): \(result.stderr)")
            }
        }
    }

    @Test("a damaged active-account entry names no account: every account stays usable, and switch mends it")
    func damagedActiveEntry() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            try await world.signIn("bob.test")
            try corruptEntry(in: world, named: "accounts/active")

            let list = try await world.atoauth("accounts", "list")
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout.contains("alice.test") && list.stdout.contains("bob.test"), "\(list.stdout)")
            #expect(list.stderr.contains("the active account cannot be read"), "\(list.stderr)")
            let named = try await world.atoauth("whoami", "--account", "alice.test")
            #expect(named.status == 0, "\(named.stderr)")
            let unnamed = try await world.atoauth("whoami")
            #expect(unnamed.status == 3, "\(unnamed.stderr)")
            // Warned of once a command, however often the command looks for the active account.
            for output in [list.stderr, unnamed.stderr] {
                #expect(output.components(separatedBy: "the active account cannot be read").count == 2, "\(output)")
            }

            let switched = try await world.atoauth("accounts", "switch", "bob.test")
            #expect(switched.status == 0, "\(switched.stderr)")
            let mended = try await world.atoauth("whoami")
            #expect(mended.status == 0 && mended.stdout.hasPrefix("bob.test"), "\(mended.stdout)\(mended.stderr)")
            #expect(!mended.stderr.contains("cannot be read"), "\(mended.stderr)")
        }
    }

    private func corruptEntry(in world: CLIWorld, named name: String) throws {
        let stem = name.replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: ":", with: "%3A")
        let file = world.home.appendingPathComponent(stem + ".entry")
        var bytes = try Data(contentsOf: file)
        try #require(bytes.count > 40)
        for index in (bytes.count - 20)..<bytes.count { bytes[index] ^= 0xFF }
        try bytes.write(to: file)
    }
}
