import ATOAuthTesting
import Foundation
import HTTPTransport
import OAuthMetadata
import SignInDoctor
import Testing

@Suite("The doctor's check of a --client-id document")
struct ClientCheckTests {
    static func native() -> [String: Any] {
        [
            "client_id": ScriptedWorld.clientID, "application_type": "native", "client_name": "App",
            "redirect_uris": ["com.example.app:/callback"], "scope": "atproto transition:generic",
            "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
            "token_endpoint_auth_method": "none", "dpop_bound_access_tokens": true,
        ]
    }

    @Test("A valid public document passes, and the probe signs in as that client")
    func publicClient() async throws {
        var world = ScriptedWorld()
        world.clientDocument = Self.native()
        let transport = world.transport()
        let diagnosis = try await world.diagnose(transport: transport)
        #expect(diagnosis.status("client-metadata") == .pass, "\(diagnosis.problems)")
        let par = transport.requests.filter { $0.url.absoluteString == ScriptedWorld.parEndpoint }
        let form = String(decoding: par.first?.body ?? Data(), as: UTF8.self)
        #expect(form.contains("client_id=https%3A%2F%2Fapp.example.com%2Fclient-metadata.json"), "\(form)")
    }

    @Test("A broken document fails with every problem and its rule, for the app")
    func broken() async throws {
        var world = ScriptedWorld()
        var document = Self.native()
        document["dpop_bound_access_tokens"] = false
        document["response_types"] = ["token"]
        world.clientDocument = document
        let diagnosis = try await world.diagnose()
        let finding = try #require(diagnosis.finding("client-metadata"))
        #expect(finding.status == .fail)
        #expect(finding.who == .app)
        #expect(finding.seen.contains("dpop_bound_access_tokens") && finding.seen.contains("response_types"))
        #expect(diagnosis.status("par-request") == .skip)
    }

    static var confidentialDocument: [String: Any] {
        [
            "client_id": ScriptedWorld.clientID, "application_type": "web", "client_name": "Service",
            "redirect_uris": ["https://app.example.com/callback"], "scope": "atproto transition:generic",
            "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
            "token_endpoint_auth_method": "private_key_jwt", "token_endpoint_auth_signing_alg": "ES256",
            "dpop_bound_access_tokens": true, "jwks_uri": ScriptedWorld.keySetURI,
        ]
    }

    @Test("A confidential document is checked, and the probe runs as the loopback client, saying so")
    func confidential() async throws {
        var world = ScriptedWorld()
        world.clientDocument = Self.confidentialDocument
        let diagnosis = try await world.diagnose()
        let finding = try #require(diagnosis.finding("client-metadata"))
        #expect(finding.status == .pass, "\(finding.seen)")
        #expect(finding.seen.contains("loopback client"))
        #expect(diagnosis.status("par-request") == .pass)
    }

    @Test("A confidential document whose jwks_uri serves a private key, or nothing, fails as its sign-in is refused")
    func confidentialKeySet() async throws {
        var world = ScriptedWorld()
        world.clientDocument = Self.confidentialDocument
        var privateKey = ClientKey().publicJWK
        privateKey["d"] = "c2VjcmV0LXNjYWxhci1ub3QtcmVhbGx5LWEta2V5LWF0LWFsbA"
        world.clientKeySet = ["keys": [privateKey]]
        let leaked = try #require(try await world.diagnose().finding("client-metadata"))
        #expect(leaked.status == .fail)
        #expect(leaked.seen.contains("jwks_uri: key 1"), "\(leaked.seen)")
        #expect(leaked.seen.contains("private key material (d)"), "\(leaked.seen)")
        #expect(!leaked.seen.contains(privateKey["d"] ?? "-"))
        #expect(leaked.who == .app)

        let transport = world.transport()
        transport.on(ScriptedWorld.keySetURI, .json(["error": "not found"], status: 404))
        let missing = try #require(try await world.diagnose(transport: transport).finding("client-metadata"))
        #expect(missing.status == .fail)
        #expect(missing.seen.contains("jwks_uri: it cannot be fetched"), "\(missing.seen)")
    }

    @Test("A confidential document whose scope does not cover --scope fails, as its sign-in is refused")
    func confidentialScope() async throws {
        var world = ScriptedWorld()
        world.clientDocument = Self.confidentialDocument
        let diagnosis = try await world.diagnose(scope: "atproto repo:app.bsky.feed.post")
        let finding = try #require(diagnosis.finding("client-metadata"))
        #expect(finding.status == .fail, "\(finding.seen)")
        #expect(finding.seen.contains("repo:app.bsky.feed.post"), "\(finding.seen)")
        #expect(finding.fix?.contains("scope") == true, "\(finding.fix ?? "")")
    }

    @Test("A valid document atoauth cannot sign in as (a public web client) is told so, not to widen its scope")
    func publicWebClient() async throws {
        var world = ScriptedWorld()
        var document = Self.native()
        document["application_type"] = "web"
        document["redirect_uris"] = ["https://app.example.com/callback"]
        world.clientDocument = document
        let finding = try #require(try await world.diagnose().finding("client-metadata"))
        #expect(finding.status == .fail, "\(finding.seen)")
        #expect(finding.fix?.contains("native app") == true && finding.fix?.contains("widen") == false)
    }

    @Test(
        "A confidential client fails server-clock at 30 seconds off, where its assertions are refused; proofs alone pass",
        arguments: [(45.0, true), (-45, true), (45, false), (10, true)]
    )
    func confidentialClock(offset: TimeInterval, confidential: Bool) async throws {
        var world = ScriptedWorld()
        if confidential { world.clientDocument = Self.confidentialDocument }
        let serverTime = Date().addingTimeInterval(offset)
        world.pushedRequestAnswers = [
            ScriptedWorld.parAnswer(["error": "use_dpop_nonce"], status: 400, nonce: "a", date: serverTime),
            ScriptedWorld.parAnswer(["request_uri": "urn:x"], status: 201, nonce: "a", date: serverTime),
        ]
        let finding = try #require(try await world.diagnose().finding("server-clock"))
        let refused = confidential && abs(offset) >= 30
        #expect(finding.status == (refused ? .fail : abs(offset) >= 30 ? .warn : .pass), "\(finding.seen)")
        if refused { #expect(finding.fix?.contains("assertions") == true) }
    }
}
