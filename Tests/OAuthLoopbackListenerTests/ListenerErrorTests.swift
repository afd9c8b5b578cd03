import ATOAuthTesting
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
        #expect(error?.code == .portInUse)
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
        #expect(error?.code == .timedOut)
        #expect(error?.description.contains("no redirect arrived within 1 second.") == true)
    }
}

@Suite("A wait that ends after a refused redirect")
struct RefusedRedirectTests {
    @Test("says that a redirect of no sign-in under way was refused: a failed security check, not a timeout")
    func refusedThenTimedOut() async throws {
        try await withListener { listener, port in
            listener.expect(state: "mine")
            let waiting = Task { try await listener.waitForCallback(timeout: .seconds(2), expectedState: "mine") }
            let connection = try RawHTTPConnection(port: port)
            connection.sendGet("/callback?state=another&code=c", host: "127.0.0.1:\(port)")
            #expect(await connection.readAll().hasPrefix("HTTP/1.1 400"))
            let error = await #expect(throws: LoopbackListenerError.self) { try await waiting.value }
            #expect(error?.code == .refusedRedirects)
            #expect(error?.category == .securityCheckFailed)
            #expect(error?.description.contains("a redirect came back with a state that belongs to no sign-in") == true)
        }
    }
}
