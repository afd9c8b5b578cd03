import Foundation
import Testing

@Suite("The browser atoauth starts does not inherit its secrets", .serialized)
struct BrowserEnvironmentTests {
    @Test("$BROWSER runs without ATOAUTH_PASSPHRASE, ATOAUTH_APP_PASSWORD or ATOAUTH_AUTH_FACTOR")
    func browserEnvironment() async throws {
        try await CLIWorld.with { world in
            let dump = world.directory.appendingPathComponent("browser-environment.txt")
            let added = try await world.atoauth(
                "accounts",
                "add",
                "alice.test",
                extraEnvironment: [
                    "BROWSER": "env > '\(dump.path)'; python3 '\(CLIWorld.browserScript.path)'",
                    "ATOAUTH_PASSPHRASE": "browser-must-not-see-this-passphrase",
                    "ATOAUTH_APP_PASSWORD": "browser-must-not-see-this-password",
                    "ATOAUTH_AUTH_FACTOR": "browser-must-not-see-this-factor",
                ]
            )
            #expect(added.status == 0, "\(added.stderr)")

            let environment = try String(contentsOf: dump, encoding: .utf8)
            #expect(environment.contains("BROWSER="))
            #expect(!environment.contains("ATOAUTH_PASSPHRASE"))
            #expect(!environment.contains("ATOAUTH_APP_PASSWORD"))
            #expect(!environment.contains("ATOAUTH_AUTH_FACTOR"))
            #expect(!environment.contains("browser-must-not-see"))
        }
    }
}
