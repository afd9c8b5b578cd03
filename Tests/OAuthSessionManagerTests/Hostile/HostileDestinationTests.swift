import ATOAuthTesting
import Foundation
import HTTPTransport
import OAuthSessionManager
import Testing

/// The hostile world points the client at private, link-local or loopback addresses, the server-side request
/// forgery of atproto.com/specs/oauth, Security Concerns: every one is refused before a connection is attempted.
///
/// ``LoopbackOnlyTransport`` would stop any request that got through, so no packet can leave the machine even if a
/// check regressed; each test expects the library's own refusal, and the scene checks that the guard never fired.
@Suite("Hostile destinations are refused before any connection", .timeLimit(.minutes(1)))
struct HostileDestinationTests {
    static let privateAddresses = [
        "https://10.0.0.1", "https://192.168.1.1", "https://172.16.0.1", "https://[fd00::1]", "https://169.254.169.254",
        "https://[fe80::1]", "https://100.64.0.1", "https://0.0.0.0", "https://[::ffff:10.0.0.1]",
    ]

    /// Host names that are not address literals but that the system resolver turns into non-public addresses
    /// without asking DNS (`inet_aton` forms), or single-label names.
    static let disguisedAddresses = [
        "https://127.1", "https://0x7f.0.0.1", "https://0177.0.0.1", "https://2130706433", "https://10.1",
        "https://0xa.0.0.1",
    ]

    @Test("a PDS on a private or special-use address is refused before any connection", arguments: privateAddresses)
    func privatePDS(_ pds: String) async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.documents[HostileScript.aliceDID]?.pds = pds }
            let error = await #expect(throws: FetchError.self) { try await scene.start() }
            expectRefusal(error, .unsafeDestination(""))
            #expect(
                scene.server.requests.map(\.path) == [
                    "/xrpc/com.atproto.identity.resolveHandle", "/\(HostileScript.aliceDID)",
                ]
            )
            try scene.expectNothingStored()
        }
    }

    @Test(
        "a PDS host name that resolves to a loopback or private address is refused, even in development mode",
        arguments: disguisedAddresses
    )
    func disguisedPDS(_ pds: String) async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.documents[HostileScript.aliceDID]?.pds = pds }
            let error = await #expect(throws: FetchError.self) { try await scene.start() }
            expectRefusal(error, .unsafeDestination(""))
            #expect(scene.server.requests.count == 2)
            try scene.expectNothingStored()
        }
    }

    @Test(
        "an authorization server on a private address named by the PDS is refused before any connection",
        arguments: ["https://10.0.0.1", "https://[fd00::1]", "https://127.1"]
    )
    func privateAuthorizationServer(_ issuer: String) async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.protectedResources[$0.origin]?.authorizationServers = [issuer] }
            let error = await #expect(throws: FetchError.self) { try await scene.start() }
            expectRefusal(error, .unsafeDestination(""))
            #expect(scene.requests(to: "/.well-known/oauth-authorization-server").isEmpty)
            scene.expectNoPAR()
            try scene.expectNothingStored()
        }
    }

    @Test(
        "authorization server endpoints on private addresses are refused with the metadata",
        arguments: [
            "authorization_endpoint", "token_endpoint", "pushed_authorization_request_endpoint", "revocation_endpoint",
        ]
    )
    func privateEndpoint(_ field: String) async throws {
        try await HostileScene.run { scene in
            scene.hostile { script in
                let hostile = "https://192.168.1.1/oauth/endpoint"
                switch field {
                case "authorization_endpoint":
                    script.authorizationServers[script.origin]?.authorizationEndpoint = hostile
                case "token_endpoint": script.authorizationServers[script.origin]?.tokenEndpoint = hostile
                case "revocation_endpoint": script.authorizationServers[script.origin]?.revocationEndpoint = hostile
                default: script.authorizationServers[script.origin]?.pushedAuthorizationRequestEndpoint = hostile
                }
            }
            let error = await #expect(throws: SessionError.self) { try await scene.start() }
            expectRefusal(error, .invalidAuthorizationServerMetadata("", field: field))
            scene.expectNoPAR()
            try scene.expectNothingStored()
        }
    }

    @Test(
        "a loopback server is refused when development mode is off",
        arguments: ["localhost", "127.0.0.1", "[::1]", "127.1"]
    )
    func loopbackWithoutDevelopmentMode(_ host: String) async throws {
        try await HostileScene.run(allowHTTPLoopback: false) { scene in
            let error = await #expect(throws: FetchError.self) {
                try await scene.start("https://\(host):\(scene.server.port)")
            }
            expectRefusal(error, .unsafeDestination(""))
            #expect(scene.server.requests.isEmpty)
            try scene.expectNothingStored()
        }
    }
}
