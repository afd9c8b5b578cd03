import ATOAuthTesting
import Foundation
import Testing

@Suite("Signing in without a local browser: the redirect address pasted on stdin, as real processes", .serialized)
struct PastedRedirectTests {
    @Test("--no-browser: the pasted redirect address signs in; the code is never printed and a pipe gets no \\r")
    func pastedRedirect() async throws {
        try await CLIWorld.with { world in
            let (_, redirect, result) = try await world.pasteRedirect(into: try world.startSignIn("alice.test"))
            let did = try #require(world.did("alice.test"))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "Signed in as alice.test (\(did))\n")
            #expect(result.stderr.contains("paste it here and press Enter"), "\(result.stderr)")
            #expect(result.stderr.contains("Waiting for the redirect… press Ctrl-C to cancel."))
            let code = try CLIWorld.code(in: redirect)
            #expect(!result.stderr.contains(code) && !result.stdout.contains(code))
            #expect(!result.stderr.contains("\r"), "no waiting line on a pipe")
            #expect(try await world.atoauth("whoami").stdout.hasPrefix("alice.test "))
        }
    }

    @Test("a pasted address with another state is a failed security check: exit 4, nothing stored")
    func wrongState() async throws {
        try await CLIWorld.with { world in
            let running = try world.startSignIn("alice.test")
            let redirect = try await world.redirectAddress(approving: try await world.authorizationURL(of: running))
            var components = try #require(URLComponents(url: redirect, resolvingAgainstBaseURL: false))
            components.queryItems = components.queryItems?.map {
                $0.name == "state" ? URLQueryItem(name: "state", value: "forged-state") : $0
            }
            running.write(try #require(components.url).absoluteString + "\n")
            let result = try await running.finish()
            #expect(result.status == 4, "\(result.stderr)")
            #expect(result.stderr.contains("belongs to another sign-in"), "\(result.stderr)")
            #expect(!result.stderr.contains(try CLIWorld.code(in: redirect)))
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") && !$0.hasPrefix("pending/") })
            #expect(try await world.sandbox.counters().authorizationCodeGrantsSucceeded == 0)
        }
    }

    @Test("a line that is not an address, or another address, gets a message and the wait goes on")
    func garbageThenRedirect() async throws {
        try await CLIWorld.with { world in
            let running = try world.startSignIn("alice.test")
            let redirect = try await world.redirectAddress(approving: try await world.authorizationURL(of: running))
            let port = try #require(redirect.port)
            running.write("this is not an address\n\n")
            try await running.waitForStderr(containing: "That is not a web address.")
            let query = try #require(redirect.query)
            for (index, other) in [
                "http://127.0.0.1:\(port)/elsewhere?\(query)", "https://127.0.0.1:\(port)/callback?\(query)",
                "http://example.com:\(port)/callback?\(query)",
            ]
            .enumerated() {
                running.write(other + "\n")
                try await running.waitForStderr(
                    containing: "That address is not this sign-in's redirect",
                    count: index + 1
                )
            }
            running.write("  " + redirect.absoluteString + "  \n")
            let result = try await running.finish()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Signed in as alice.test "))
            #expect(!result.stderr.contains(try CLIWorld.code(in: redirect)))
        }
    }

    @Test("--no-browser with stdin at its end: the loopback redirect still completes the sign-in")
    func loopbackStillWorks() async throws {
        try await CLIWorld.with { world in
            let running = try world.startSignIn("alice.test")
            running.closeInput()
            let url = try await world.authorizationURL(of: running)
            let browser = try CLIProcess.start(
                ["python3", CLIWorld.browserScript.path, url.absoluteString],
                environment: ProcessInfo.processInfo.environment,
                executable: URL(fileURLWithPath: "/usr/bin/env")
            )
            let result = try await running.finish()
            let browsed = try await browser.finish()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Signed in as alice.test "))
            #expect(browsed.status == 0, "\(browsed.stderr)")
            #expect(!result.stderr.contains("\r"))
        }
    }

    @Test("a $BROWSER that is not found is reported, and the pasted address still signs in")
    func missingBrowser() async throws {
        try await CLIWorld.with { world in
            let running = try world.startSignIn(
                "alice.test",
                [],
                extraEnvironment: ["BROWSER": "/nonexistent/atoauth-test-browser"]
            )
            let (before, _, result) = try await world.pasteRedirect(into: running)
            #expect(before.contains("Could not open a browser: $BROWSER names a command that was not found."))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Signed in as alice.test "))
        }
    }

    #if os(Linux)
    @Test("without $BROWSER and without xdg-open on PATH, atoauth says so and takes the pasted address")
    func missingPlatformOpener() async throws {
        try await CLIWorld.with { world in
            let emptyPath = world.directory.appendingPathComponent("empty-bin")
            try FileManager.default.createDirectory(at: emptyPath, withIntermediateDirectories: true)
            var environment = world.environment
            environment["BROWSER"] = nil
            environment["PATH"] = emptyPath.path
            let running = try CLIProcess.start(
                ["accounts", "add", "alice.test"],
                environment: environment,
                keepStdinOpen: true
            )
            let (before, _, result) = try await world.pasteRedirect(into: running)
            #expect(before.contains("Could not open a browser: xdg-open names a command that was not found."))
            #expect(result.status == 0, "\(result.stderr)")
        }
    }
    #endif

    @Test("on a terminal: one updating line says until when it waits, the paste is not echoed, and it is cleared")
    func terminal() async throws {
        try await CLIWorld.with { world in
            let started = Date()
            let terminal = try TerminalProcess(
                ["accounts", "add", "alice.test", "--no-browser", "--timeout", "600"],
                environment: world.environment
            )
            let screen = try await terminal.waitFor("left)…")
            #expect(screen.contains("paste it here (it is not shown) and press Enter"), "\(screen)")
            // Before the URL, a terminal is told what is happening, in order.
            let steps = [
                "Resolving alice.test…", "Checking its servers (http://127.0.0.1:", "Sending the sign-in request to ",
            ]
            let positions = steps.compactMap { screen.range(of: $0)?.lowerBound }
            #expect(positions.count == 3 && positions == positions.sorted(), "\(screen)")
            #expect(
                screen.range(of: "Open this URL")?.lowerBound ?? screen.startIndex > positions.last ?? screen.endIndex
            )
            #expect(!screen.contains("press Ctrl-C to cancel."), "the static waiting line is for pipes")
            #expect(try !terminal.echoes(), "echo is off while the address is read")
            let redirect = try await world.redirectAddress(approving: try CLIWorld.authorizationURL(in: screen))
            // Pasted after the waiting line was drawn again (once a second), so a redraw cannot garble the paste.
            try await terminal.waitFor("left)…", times: screen.components(separatedBy: "left)…").count)
            terminal.type(redirect.absoluteString + "\n")
            let (status, output) = try await terminal.finish()
            #expect(status == 0, "\(output)")
            #expect(!output.contains(try CLIWorld.code(in: redirect)), "the pasted address is not echoed")
            #expect(output.contains("Got \(redirect.absoluteString.count) characters; checking…"), "\(output)")
            #expect(try terminal.echoes(), "echo is back after the sign-in")
            let drawn = output.components(separatedBy: "\r\u{1B}[KWaiting for the redirect until ").dropFirst()
            #expect(drawn.count >= 2, "the line is redrawn in place: \(output.debugDescription)")
            #expect(output.contains("\r\u{1B}[KSigned in as alice.test ("), "the line is cleared before the result")
            // The deadline is the local time 600 seconds after the start (with its date if that is another day).
            let shown = try #require(drawn.first?.components(separatedBy: " (").first)
            let acceptable = ["HH:mm:ss", "yyyy-MM-dd HH:mm:ss"].flatMap { format in
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.dateFormat = format
                return (0...30).map { formatter.string(from: started.addingTimeInterval(600 + Double($0))) }
            }
            #expect(acceptable.contains(shown), "deadline \(shown), expected about \(acceptable[0])")
        }
    }
}
