import ATOAuthTesting
import Foundation
import Keystore
import Testing

@Suite("Crash safety")
struct CrashSafetyTests {
    private static let valueSize = 256 * 1024

    @Test("a writer killed with SIGKILL leaves a readable entry holding one of the values it wrote", arguments: 1...4)
    func killedWriter(round: Int) async throws {
        let fixture = try StoreFixture()
        _ = try fixture.keyFileStore()
        let progress = fixture.root.appending(path: "progress")
        let helper = try StressHelperProcess([
            "alternate", fixture.directory.path, fixture.keyFile.path, progress.path, String(Self.valueSize),
        ])

        try await Waiting.until("the helper to record \(2 + round) writes") {
            writes(recordedIn: progress) >= 2 + round
        }
        // A random moment within the next write on purpose, so the kill lands at different steps of it.
        try await Task.sleep(for: .microseconds(Int.random(in: 0...3000)))
        helper.kill()
        let exit = await helper.waitForExit()

        #expect(exit.reason == .uncaughtSignal, "helper ended early: \(exit.errors)")
        #expect(writes(recordedIn: progress) >= 2 + round)
        let store = try fixture.keyFileStore()
        let value = try #require(try store.load("value"))
        let written = [UInt8(ascii: "A"), UInt8(ascii: "B")].map { Data(repeating: $0, count: Self.valueSize) }
        #expect(written.contains(value))
        #expect(try store.names() == ["value"])
    }

    private func writes(recordedIn file: URL) -> Int {
        (try? String(contentsOf: file, encoding: .utf8)).flatMap { Int($0) } ?? 0
    }
}
