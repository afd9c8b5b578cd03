import ATOAuthTesting
import Failures
import Foundation
import HTTPTransport
import OAuthSessionManager
import Testing

/// A hostile PDS or authorization server lies in its metadata (RFC 9728 §3; atproto.com/specs/oauth, Authorization Servers): sign-in stops before the
/// PAR, and nothing is stored.
@Suite("Hostile metadata stops sign-in before the PAR", .timeLimit(.minutes(1)))
struct HostileMetadataTests {
    /// The ways an authorization server's `issuer` can differ from the URL its metadata was fetched from.
    enum IssuerLie: String, CaseIterable, Sendable {
        case anotherOrigin = "another origin"
        case trailingSlash = "a trailing slash"
        case missing = "no issuer at all"

        func apply(to script: inout HostileScript) {
            let origin = script.origin
            switch self {
            case .anotherOrigin: script.authorizationServers[origin]?.issuer = script.otherOrigin
            case .trailingSlash: script.authorizationServers[origin]?.issuer = origin + "/"
            case .missing: script.authorizationServers[origin]?.issuer = nil
            }
        }
    }

    @Test("protected resource metadata whose resource is another origin is refused")
    func resourceOfAnotherOrigin() async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.protectedResources[$0.origin]?.resource = $0.otherOrigin }
            let error = await #expect(throws: SessionError.self) { try await scene.start() }
            expectRefusal(error, .invalidProtectedResourceMetadata("", field: "resource"))
            #expect(scene.requests(to: "/.well-known/oauth-authorization-server").isEmpty)
            scene.expectNoPAR()
            try scene.expectNothingStored()
        }
    }

    @Test("protected resource metadata that names two authorization servers is refused")
    func twoAuthorizationServers() async throws {
        try await HostileScene.run { scene in
            scene.hostile { script in
                script.protectedResources[script.origin]?.authorizationServers = [script.origin, script.otherOrigin]
            }
            let error = await #expect(throws: SessionError.self) { try await scene.start() }
            expectRefusal(error, .invalidProtectedResourceMetadata("", field: "authorization_servers"))
            #expect(scene.requests(to: "/.well-known/oauth-authorization-server").isEmpty)
            scene.expectNoPAR()
            try scene.expectNothingStored()
        }
    }

    @Test("protected resource metadata answered with a redirect is refused, and the redirect is not followed")
    func redirectedProtectedResource() async throws {
        let path = "/.well-known/oauth-protected-resource"
        try await HostileScene.run { scene in
            scene.hostile { $0.overrides[$0.origin + path] = .redirect(to: $0.otherOrigin + path) }
            let error = await #expect(throws: FetchError.self) { try await scene.start() }
            expectRefusal(error, .redirectRefused(url: scene.server.baseURL, status: 302, location: nil))
            #expect(error?.status == 302)
            #expect(error?.description.contains(scene.otherOrigin + path) == true)
            let metadataRequests = scene.requests(to: path)
            #expect(metadataRequests.count == 1)
            #expect(metadataRequests.allSatisfy { $0.header("Host") == "127.0.0.1:\(scene.server.port)" })
            scene.expectNoPAR()
            try scene.expectNothingStored()
        }
    }

    @Test(
        "authorization server metadata whose issuer is not the URL it was fetched from is refused",
        arguments: IssuerLie.allCases
    )
    func issuerMismatch(_ lie: IssuerLie) async throws {
        try await HostileScene.run { scene in
            scene.hostile { lie.apply(to: &$0) }
            let error = await #expect(throws: SessionError.self) { try await scene.start() }
            expectRefusal(error, .invalidAuthorizationServerMetadata("", field: "issuer"))
            scene.expectNoPAR()
            try scene.expectNothingStored()
        }
    }

    @Test("sign-up is asked only of a server that lists prompt=create; another prompt passes through to the PAR")
    func promptValues() async throws {
        try await HostileScene.run { scene in
            let error = await #expect(throws: SessionError.self) {
                try await scene.start(scene.origin, prompt: .create)
            }
            #expect(error?.code == .promptNotSupported)
            #expect(error?.category == .usage)
            #expect(error?.description.contains("does not offer sign-up") == true)
            scene.expectNoPAR()
            _ = try await scene.start(prompt: .selectAccount)
            let pushed = try #require(scene.requests(to: "/oauth/par").last)
            #expect(String(decoding: pushed.body, as: UTF8.self).contains("prompt=select_account"))
        }
    }
}
