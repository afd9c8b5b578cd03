import ATOAuthTesting
import Foundation
import Testing

/// The store key lives in libsodium's guarded memory; each test runs the helper process, whose locked memory is the
/// store's alone.
@Suite("The store key in locked memory")
struct LockedMemoryTests {
    @Test("the store key is locked in RAM while the store is open, and unlocked when the store goes away")
    func keyIsLockedWhileOpen() async throws {
        let fixture = try StoreFixture()
        let helper = try StressHelperProcess(["locked-memory", fixture.directory.path, fixture.keyFile.path])
        let exit = await helper.waitForExit()
        #expect(exit.reason == .exit && exit.status == 0, "\(exit.errors)")
        let kilobytes = exit.errors.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(kilobytes.count == 3, "\(exit.errors)")
        #expect(kilobytes[1] > kilobytes[0])
        #expect(kilobytes[2] == kilobytes[0])
    }

    @Test("a store opens and works in a process that may lock no memory")
    func storeWorksWithoutLocking() async throws {
        let exit = try await StressHelperProcess(["unlocked-store"]).waitForExit()
        #expect(exit.reason == .exit && exit.status == 0, "\(exit.errors)")
        #expect(exit.errors.contains("unlocked store works, VmLck 0 kB"))
    }
}
