import ATOAuthTesting
import Foundation
import Testing

@Suite("The atoauth process keeps its keys and tokens out of core files")
struct ProcessGuardTests {
    @Test("while it waits for a sign-in, holding its DPoP key, its core file limit is 0")
    func noCoreFile() async throws {
        try await CLIWorld.with { world in
            let running = try world.startSignIn("alice.test")
            _ = try await world.authorizationURL(of: running)
            let pid = running.process.processIdentifier
            let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
            let core = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") })
            let values = core.dropFirst("Max core file size".count).split(separator: " ")
            #expect(values.prefix(2) == ["0", "0"], "\(core)")
            running.signal(SIGINT)
            _ = try await running.finish()
        }
    }
}
