import ATOAuthTesting
import AccountManager
import Foundation
import HTTPTransport
import Keystore
import Sandbox
import Testing

@testable import OAuthSessionManager

@Suite("An app-password sign-in the PDS cannot serve is the PDS's problem, not the password's")
struct AppPasswordServerErrorTests {
    @Test(
        "createSession answered 500 or 429 says why and to try again later, never to check the password; no store",
        arguments: [
            (500, "InternalServerError", "The server had a problem; try again later."),
            (429, "RateLimitExceeded", "The server is limiting how often it is asked; try again later."),
        ]
    )
    func serverError(status: Int, code: String, advice: String) async throws {
        let failing = ScriptedResponse.json(#"{"error":"\#(code)","message":"No."}"#, status: status)
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(failing)) { pds in
            try await SandboxWorld.with { world in
                let detours = DetouringTransport(world.transport, path: "/xrpc/com.atproto.server.createSession")
                let store = InMemoryKeystore()
                let sessions = world.accounts(keystore: store, transport: detours).sessions
                let password = try #require(world.server.configuration.account(for: "alice.test")?.appPassword)
                detours.sendNext(toPort: pds.port, through: world.transport)
                let error = await #expect(throws: SessionError.self) {
                    try await sessions.signInWithAppPassword(
                        "alice.test",
                        password: password,
                        replacingOAuth: false,
                        authFactor: { nil }
                    )
                }
                #expect(error?.code == .requestFailed)
                #expect(error?.description.contains(advice) == true, "\(String(describing: error))")
                #expect(error?.description.contains("Check the handle") == false)
                #expect(!pds.requests.isEmpty)
                #expect(try store.names().filter { $0.hasPrefix("session/") }.isEmpty)
            }
        }
    }
}
