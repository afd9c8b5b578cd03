import Failures
import Foundation
import OAuthLoopbackListener
import Testing

@Suite("The loopback listener's own errors")
struct ListenerErrorTests {
    @Test("a port another listener holds is named, with another port as the remedy")
    func portInUse() async throws {
        let first = try await LoopbackCallbackListener.start()
        let port = try #require(first.redirectURI.port)
        let error = await #expect(throws: LoopbackListenerError.self) {
            _ = try await LoopbackCallbackListener.start(port: port)
        }
        await first.finish(with: .failed("test over"))
        #expect(error?.hasSameCode(as: .portInUse(0)) == true)
        #expect(error?.description.contains("Port \(port) on 127.0.0.1 is already in use") == true)
        #expect(error?.remedy == .chooseAnotherPort(port))
        #expect(error?.category == .failed)
    }

    @Test("no redirect in time is a timeout that says how long it waited")
    func timedOut() async throws {
        let listener = try await LoopbackCallbackListener.start()
        let error = await #expect(throws: LoopbackListenerError.self) {
            _ = try await listener.waitForCallback(timeout: .seconds(1))
        }
        await listener.finish(with: .failed("test over"))
        #expect(error?.hasSameCode(as: .timedOut(0)) == true)
        #expect(error?.description.contains("no redirect arrived within 1 second.") == true)
    }
}
