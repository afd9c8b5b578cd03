import ATOAuthTesting
import DPoPRequestExecutor
import Failures
import Foundation
import HTTPTransport
import Keystore
import Testing

@testable import OAuthSessionManager

/// The token endpoint and the app-password session methods connect to the address their destination check saw
/// (atproto.com/specs/oauth, Security Concerns), as fetches do: a name rebound after the check cannot move them.
@Suite("Token and session endpoints connect to the checked address")
struct PinnedEndpointTests {
    static let token = "https://auth.example.com/oauth/token"
    static let createSession = "https://pds.example.com/xrpc/com.atproto.server.createSession"

    /// A resolver for a rebound name: the first look-up answers a public address, every later one a private address.
    static func rebinding() -> RebindingAddressResolver {
        RebindingAddressResolver([["93.184.216.34"], ["10.0.0.7"]])
    }

    @Test("a token request and its DPoP nonce retry connect to the checked address and share the nonce cache")
    func tokenRequestIsPinned() async throws {
        let challenge = HTTPResponse(
            status: 400,
            headers: ["Content-Type": "application/json", "DPoP-Nonce": "fresh-nonce"],
            body: Data(#"{"error":"use_dpop_nonce"}"#.utf8)
        )
        let script = ScriptedTransport(responses: [challenge, .json(["access_token": "t", "token_type": "DPoP"])])
        let transport = PinningRecorder(script)
        let resolver = Self.rebinding()
        let nonces = DPoPNonceCache()
        let manager = SessionManager(
            keystore: InMemoryKeystore(),
            transport: transport,
            addressResolver: resolver,
            nonceCache: nonces
        )
        let endpoint = try url(Self.token)
        let response = try await manager.postForm(
            [("grant_type", "refresh_token")],
            to: endpoint,
            key: DPoPKey(),
            purpose: "token request"
        )
        #expect(response.status == 200)
        #expect(transport.connections == ["93.184.216.34", "93.184.216.34"])
        #expect(resolver.lookUps == 1)
        #expect(script.requests.count == 2)
        #expect(nonces.nonce(for: try DPoPTarget.origin(of: endpoint)) == "fresh-nonce")

        // The next request checks again, sees the private address and sends nothing.
        let error = await #expect(throws: FetchError.self) {
            try await manager.postForm(
                [("grant_type", "refresh_token")],
                to: endpoint,
                key: DPoPKey(),
                purpose: "token request"
            )
        }
        #expect(error?.category == .securityCheckFailed)
        #expect(script.requests.count == 2)
    }

    @Test("createSession, which carries the app password, connects to the checked address")
    func createSessionIsPinned() async throws {
        let script = ScriptedTransport(responses: [.json(["accessJwt": "a", "refreshJwt": "r", "did": "did:plc:x"])])
        let transport = PinningRecorder(script)
        let resolver = Self.rebinding()
        let manager = SessionManager(keystore: InMemoryKeystore(), transport: transport, addressResolver: resolver)
        let response = try await manager.postLegacy(
            try url(Self.createSession),
            bearer: nil,
            json: ["identifier": "did:plc:x", "password": "app-pass-word"],
            purpose: "app-password sign-in"
        )
        #expect(response.status == 200)
        #expect(transport.connections == ["93.184.216.34"])
        #expect(resolver.lookUps == 1)
    }

    @Test("createSession to a name that also resolves to a private address is refused before the password is sent")
    func createSessionRefusedBeforeSending() async throws {
        let script = ScriptedTransport()
        let transport = PinningRecorder(script)
        let manager = SessionManager(
            keystore: InMemoryKeystore(),
            transport: transport,
            addressResolver: FakeAddressResolver(table: ["pds.example.com": ["93.184.216.34", "10.0.0.7"]])
        )
        let error = await #expect(throws: FetchError.self) {
            try await manager.postLegacy(
                try url(Self.createSession),
                bearer: nil,
                json: ["identifier": "did:plc:x", "password": "app-pass-word"],
                purpose: "app-password sign-in"
            )
        }
        #expect(error?.code == .unsafeDestination)
        #expect(script.requests.isEmpty && transport.connections.isEmpty)
    }
}
