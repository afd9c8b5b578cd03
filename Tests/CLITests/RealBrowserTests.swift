import ATOAuthTesting
import Foundation
import Testing

@Suite("A real browser approves on the sandbox's consent page")
struct RealBrowserTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("chromium_approve.py")

    @Test("headless Chromium opens the authorization URL, clicks Approve, and the CLI completes the sign-in")
    func chromiumApproves() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
            "install Debian's chromium package (and pip websocket-client); .ci/run does"
        )
        try await CLIWorld.with(autoApprove: false) { world in
            let screenshot = world.directory.appendingPathComponent("approval.png")
            let browserLog = world.directory.appendingPathComponent("browser.log")
            let result = try await world.atoauth(
                "accounts",
                "add",
                "alice.test",
                "--timeout",
                "90",
                extraEnvironment: [
                    "BROWSER": "python3 \(Self.script.path)",
                    "ATOAUTH_TEST_SCREENSHOT": screenshot.path,
                    "ATOAUTH_TEST_BROWSER_LOG": browserLog.path,
                ]
            )
            // atoauth exits as soon as the redirect arrives; the browser script logs the page it then shows a moment
            // later, on its own (its output no longer shares atoauth's pipes).
            let log = await Self.browserLog(browserLog, containing: "callback page:")
            #expect(result.status == 0, "\(result.stderr)\n\(log)")
            #expect(result.stdout.hasPrefix("Signed in as alice.test"))
            #expect(log.contains("consent page: Authorize"))
            #expect(log.contains("callback page: Signed in"))
            let png = try Data(contentsOf: screenshot)
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            #expect(try await world.atoauth("whoami").status == 0)
            // The script outlives atoauth: the world's folder goes only once the browser has no process left.
            let closed = await Self.browserLog(browserLog, containing: "browser closed", orError: false)
            #expect(closed.contains("browser closed"), "\(closed)")
        }
    }

    /// The browser script's log once it contains `text` (or an error, with `orError`), or as it is after a minute.
    static func browserLog(_ file: URL, containing text: String, orError: Bool = true) async -> String {
        var log = "(no browser log)"
        await Waiting.atMost(.seconds(60)) {
            log = (try? String(contentsOf: file, encoding: .utf8)) ?? "(no browser log)"
            return log.contains(text) || (orError && log.contains("error:"))
        }
        return log
    }
}
