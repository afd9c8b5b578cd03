import Foundation
import Testing

/// `accounts add <server> --create-account` (prompt=create) and `--prompt`, against the sandbox's sign-up.
@Suite("Signing up, and the prompt values, through the CLI as a process", .serialized)
struct SignUpTests {
    static let signUpBrowser = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("signup_browser.py")

    @Test("--create-account on the sandbox's server: a new account is made, signed in, active, and usable")
    func autoApprovedSignUp() async throws {
        try await CLIWorld.with { world in
            let pds = world.sandbox.pds.absoluteString
            let added = try await world.atoauth("accounts", "add", pds, "--create-account")
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.hasPrefix("Signed in as new3.test (did:plc:"), "\(added.stdout)")
            let whoami = try await world.atoauth("whoami")
            #expect(whoami.status == 0 && whoami.stdout.hasPrefix("new3.test "), "\(whoami.stderr)")
        }
    }

    @Test("on the sign-up page, the handle the person chose becomes the account")
    func signUpPage() async throws {
        try await CLIWorld.with(autoApprove: false) { world in
            let added = try await world.atoauth(
                "accounts",
                "add",
                world.sandbox.pds.absoluteString,
                "--create-account",
                extraEnvironment: ["BROWSER": "python3 \(Self.signUpBrowser.path) carol.test"]
            )
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.hasPrefix("Signed in as carol.test ("), "\(added.stdout)")
        }
    }

    @Test("--create-account with a handle, with --prompt or --app-password, and --prompt create are usage errors")
    func usage() async throws {
        try await CLIWorld.with { world in
            let handle = try await world.atoauth("accounts", "add", "alice.test", "--create-account")
            #expect(handle.status == 2, "\(handle.stderr)")
            #expect(handle.stderr.contains("Signing up starts from a server"), "\(handle.stderr)")
            for (arguments, words) in [
                (["--create-account", "--prompt", "login"], "leave --prompt out"),
                (["--create-account", "--app-password"], "--create-account and --prompt do not apply"),
                (["--prompt", "create"], "to sign up, use --create-account"),
                (["--prompt", "bogus"], "--prompt takes login, consent or select_account"),
            ] {
                let result = try await world.atoauth(["accounts", "add", "alice.test"] + arguments)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
            }
            let prompted = try await world.atoauth("accounts", "add", "alice.test", "--prompt", "select_account")
            #expect(prompted.status == 0, "\(prompted.stderr)")
        }
    }
}
