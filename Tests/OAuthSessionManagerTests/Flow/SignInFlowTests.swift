import ATOAuthTesting
import ATProtoSyntax
import Failures
import Foundation
import Keystore
import OAuthSessionManager
import Sandbox
import Testing

@Suite("Sign-in against the strict sandbox", .serialized)
struct SignInFlowTests {
    @Test("the whole flow stores an encrypted session bound to a DPoP key, and another manager can use it")
    func fullFlow() async throws {
        try await SandboxWorld.with { flow in
            let manager = flow.sessions()
            let events = manager.events()
            let session = try await flow.signIn(with: manager)
            #expect(session.handle?.description == "alice.test")
            #expect(session.issuer == flow.endpoints.issuer)
            #expect(session.pds.absoluteString.hasPrefix(flow.endpoints.pds.absoluteString.trimmingSuffix("/")))
            #expect(session.scope.split(separator: " ").contains("atproto"))
            #expect(session.refreshToken != nil)
            #expect(try flow.keystore.names().contains("session/\(session.did)"))
            #expect(try flow.keystore.names().contains("dpop-key/\(session.did)"))
            #expect(try flow.keystore.names().allSatisfy { !$0.hasPrefix("pending/") })
            #expect(flow.server.counters.nonceChallengesSent >= 1, "the PAR went through the nonce retry")
            var iterator = events.makeAsyncIterator()
            #expect(await iterator.next() == .updated(did: session.did))

            let other = flow.sessions()
            #expect(try await other.storedSession(for: session.did)?.accessToken == session.accessToken)
        }
    }

    @Test("a sign-in started by one manager can be completed by another sharing the keystore")
    func laterProcessCompletes() async throws {
        try await SandboxWorld.with { flow in
            let request = try await flow.sessions().startSignIn("bob.test", client: try flow.oauthClient())
            let callback = try await flow.approve(request)
            let session = try await flow.sessions().completeSignIn(callbackURL: callback).session
            #expect(session.handle?.description == "bob.test")
        }
    }

    @Test("a replayed callback and a wrong state are refused as security failures, storing nothing")
    func replayAndWrongState() async throws {
        try await SandboxWorld.with { flow in
            let manager = flow.sessions()
            let request = try await manager.startSignIn("alice.test", client: try flow.oauthClient())
            let callback = try await flow.approve(request)
            var forged = try #require(URLComponents(url: callback, resolvingAgainstBaseURL: false))
            forged.queryItems = forged.queryItems?.map {
                $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0
            }
            let wrongState = await #expect(throws: SessionError.self) {
                try await manager.completeSignIn(callbackURL: try #require(forged.url))
            }
            #expect(wrongState?.code == .unknownState)
            #expect(wrongState?.category == .securityCheckFailed)

            _ = try await manager.completeSignIn(callbackURL: callback)
            let replay = await #expect(throws: SessionError.self) {
                try await manager.completeSignIn(callbackURL: callback)
            }
            #expect(replay?.code == .unknownState)
        }
    }

    @Test("a pending sign-in older than ten minutes cannot be completed")
    func expiredPending() async throws {
        try await SandboxWorld.with { flow in
            let manager = flow.sessions()
            let request = try await manager.startSignIn("alice.test", client: try flow.oauthClient())
            let callback = try await flow.approve(request)
            flow.clock.advance(by: 601)
            let error = await #expect(throws: SessionError.self) {
                try await manager.completeSignIn(callbackURL: callback)
            }
            #expect(error?.code == .authorizationExpired)
            #expect(try flow.keystore.names().allSatisfy { !$0.hasPrefix("session/") && !$0.hasPrefix("pending/") })
        }
    }

    @Test("cancelling a started sign-in forgets it")
    func cancel() async throws {
        try await SandboxWorld.with { flow in
            let manager = flow.sessions()
            let request = try await manager.startSignIn("alice.test", client: try flow.oauthClient())
            try await manager.cancelSignIn(state: request.state)
            let callback = try await flow.approve(request)
            await #expect(throws: SessionError.self) { try await manager.completeSignIn(callbackURL: callback) }
        }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
