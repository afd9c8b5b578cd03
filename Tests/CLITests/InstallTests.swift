import Foundation
import Testing

/// `scripts/install` and the man page, run as a user would, into a scratch prefix with the binary the tests built.
@Suite("Installing atoauth", .serialized)
struct InstallTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/install")

    /// How long an install may take before the test calls it hung.
    ///
    /// Stripping the debug binary and starting it five times takes 3 s alone, but 40 s or more when the processes
    /// wait for CPU beside the full suite and CI's fuzzers.
    static let installDeadline: Duration = .seconds(300)

    @Test("scripts/install PREFIX puts the binary, the man page and three completions in place, and they work")
    func install() async throws {
        try await ScratchHome.with { scratch in
            let executable = try #require(CLIProcess.executable)
            let prefix = scratch.directory.appendingPathComponent("prefix with space")
            let installed = try await CLIProcess.run(
                [Self.script.path, prefix.path],
                environment: scratch.environment.merging(["ATOAUTH_INSTALL_BINARY": executable.path]) { $1 },
                executable: URL(fileURLWithPath: "/bin/bash"),
                timeout: Self.installDeadline
            )
            #expect(installed.status == 0, "\(installed.stderr)")
            #expect(installed.stdout.hasPrefix("Installed atoauth 0.1.0 under \(prefix.path)"), "\(installed.stdout)")
            #expect(installed.stdout.contains("is not on PATH"), "\(installed.stdout)")

            let binary = prefix.appendingPathComponent("bin/atoauth")
            let version = try await CLIProcess.run(["--version"], environment: scratch.environment, executable: binary)
            #expect(version.stdout == "0.1.0\n")
            for file in [
                "share/bash-completion/completions/atoauth", "share/zsh/site-functions/_atoauth",
                "share/fish/vendor_completions.d/atoauth.fish",
            ] {
                let text = try String(contentsOf: prefix.appendingPathComponent(file), encoding: .utf8)
                #expect(text.contains("---completion"), "\(file) completes account names through atoauth")
            }

            // The man page renders, and documents every command.
            let page = prefix.appendingPathComponent("share/man/man1/atoauth.1")
            let rendered = try await CLIProcess.run(
                ["-man", "-Tutf8", "-ww", "-P-c", "-P-b", "-P-o", "-P-u", page.path],
                environment: scratch.environment,
                executable: URL(fileURLWithPath: "/usr/bin/groff")
            )
            #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
            for command in ["atoauth accounts add", "atoauth accounts switch", "atoauth whoami", "atoauth xrpc"] {
                #expect(rendered.stdout.contains(command), "\(command)")
            }
            #expect(rendered.stdout.contains("EXIT STATUS"))
        }
    }

    @Test("a relative PREFIX is taken from where the command runs, not from the repository")
    func relativePrefix() async throws {
        try await ScratchHome.with { scratch in
            let executable = try #require(CLIProcess.executable)
            let installed = try await CLIProcess.run(
                ["-c", #"cd "$1" && exec "$2" relative-prefix"#, "bash", scratch.directory.path, Self.script.path],
                environment: scratch.environment.merging(["ATOAUTH_INSTALL_BINARY": executable.path]) { $1 },
                executable: URL(fileURLWithPath: "/bin/bash"),
                timeout: Self.installDeadline
            )
            #expect(installed.status == 0, "\(installed.stderr)")
            let binary = scratch.directory.appendingPathComponent("relative-prefix/bin/atoauth")
            #expect(FileManager.default.isExecutableFile(atPath: binary.path), "\(installed.stdout)")
        }
    }

    @Test("a prefix that cannot be written is refused before anything is built, naming one that works")
    func unwritablePrefix() async throws {
        try await ScratchHome.with { scratch in
            let file = scratch.directory.appendingPathComponent("a-file")
            try Data().write(to: file)
            let refused = try await CLIProcess.run(
                [Self.script.path, file.appendingPathComponent("prefix").path],
                environment: scratch.environment,
                executable: URL(fileURLWithPath: "/bin/bash")
            )
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("cannot write under"), "\(refused.stderr)")
            #expect(refused.stderr.contains("scripts/install ~/.local"), "\(refused.stderr)")
        }
    }
}
