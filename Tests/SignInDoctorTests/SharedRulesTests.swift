import ATOAuthTesting
import Failures
import Foundation
import HTTPTransport
import Keystore
import OAuthMetadata
import OAuthSessionManager
import SignInDoctor
import Testing

/// A sign-in and the doctor read the same hostile metadata with the same checks (RFC 9728 §3, RFC 8414 §3;
/// atproto.com/specs/oauth, Authorization Servers): the sign-in stops at the first failure, before the PAR, and the
/// doctor fails the check of that rule, citing it alike.
@Suite("A sign-in and the doctor name the same broken rule")
struct SharedRulesTests {
    /// One hostile change to the scripted world, the doctor's check it breaks, and the member the sign-in names.
    struct Hostile: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let check: String
        let member: String
        let apply: @Sendable (inout ScriptedWorld) -> Void
    }

    static let hostile: [Hostile] = [
        Hostile(testDescription: "a wrong issuer", check: "as-metadata-issuer", member: "issuer") {
            $0.metadata["issuer"] = "https://elsewhere.example.com"
        },
        Hostile(
            testDescription: "no PAR endpoint",
            check: "as-metadata-par",
            member: "pushed_authorization_request_endpoint"
        ) { $0.metadata["pushed_authorization_request_endpoint"] = nil },
        Hostile(
            testDescription: "PAR not required",
            check: "as-metadata-par",
            member: "require_pushed_authorization_requests"
        ) { $0.metadata["require_pushed_authorization_requests"] = false },
        Hostile(
            testDescription: "no ES256 for DPoP",
            check: "as-metadata-dpop",
            member: "dpop_signing_alg_values_supported"
        ) { $0.metadata["dpop_signing_alg_values_supported"] = ["RS256", "es256"] },
        Hostile(
            testDescription: "no PKCE S256",
            check: "as-metadata-pkce",
            member: "code_challenge_methods_supported"
        ) { $0.metadata["code_challenge_methods_supported"] = ["plain"] },
        Hostile(
            testDescription: "no code response type",
            check: "as-metadata-grants",
            member: "response_types_supported"
        ) { $0.metadata["response_types_supported"] = ["token"] },
        Hostile(
            testDescription: "no refresh tokens",
            check: "as-metadata-grants",
            member: "grant_types_supported"
        ) { $0.metadata["grant_types_supported"] = nil },
        Hostile(
            testDescription: "no iss in authorization responses",
            check: "as-metadata-iss",
            member: "authorization_response_iss_parameter_supported"
        ) { $0.metadata["authorization_response_iss_parameter_supported"] = false },
        Hostile(
            testDescription: "no public clients",
            check: "as-metadata-client-auth",
            member: "token_endpoint_auth_methods_supported"
        ) { $0.metadata["token_endpoint_auth_methods_supported"] = ["private_key_jwt"] },
        Hostile(
            testDescription: "no client ID metadata documents",
            check: "as-metadata-client-id-documents",
            member: "client_id_metadata_document_supported"
        ) { $0.metadata["client_id_metadata_document_supported"] = false },
        Hostile(testDescription: "no atproto scope", check: "as-metadata-scopes", member: "scopes_supported") {
            $0.metadata["scopes_supported"] = ["transition:generic"]
        },
        Hostile(
            testDescription: "a token endpoint on a private address",
            check: "as-metadata-endpoints",
            member: "token_endpoint"
        ) { $0.metadata["token_endpoint"] = "https://10.1.2.3/oauth/token" },
        Hostile(
            testDescription: "an http issuer",
            check: "resource-metadata",
            member: "authorization_servers"
        ) { world in
            world.resource["authorization_servers"] = ["http://auth.example.com"]
            world.metadata["issuer"] = "http://auth.example.com"
        },
        Hostile(
            testDescription: "resource metadata naming another server",
            check: "resource-metadata",
            member: "resource"
        ) { $0.resource["resource"] = "https://other.example.com" },
        Hostile(
            testDescription: "an authorization server protecting another PDS",
            check: "as-protected-resources",
            member: "protected_resources"
        ) { $0.metadata["protected_resources"] = ["https://other.example.com"] },
    ]

    @Test("Hostile metadata stops a sign-in at the rule the doctor fails", arguments: Self.hostile)
    func sameRule(_ hostile: Hostile) async throws {
        var world = ScriptedWorld()
        hostile.apply(&world)

        let diagnosis = try await world.diagnose(ScriptedWorld.pds)
        let metadataChecks = diagnosis.checks.filter { $0.check.hasPrefix("as-") || $0.check == "resource-metadata" }
        let failure = try #require(metadataChecks.first { $0.status == .fail }, "\(diagnosis.problems)")
        #expect(failure.check == hostile.check, "\(diagnosis.problems)")
        #expect(failure.who == .server)

        let transport = world.transport()
        let error = await #expect(throws: SessionError.self) { try await Self.startSignIn(in: world, over: transport) }
        #expect(error?.category == .securityCheckFailed)
        #expect(error?.field == hostile.member)
        #expect(error?.reason.contains(failure.rule) == true, "\(error?.reason ?? "") cites \(failure.rule)")
        #expect(error?.description.contains(hostile.member) == true, "\(error?.description ?? "")")
        #expect(transport.count(of: ScriptedWorld.parEndpoint) == 0, "no PAR is sent")
    }

    @Test("Healthy metadata passes both, and the sign-in's PAR is the request the doctor's probe sends")
    func healthy() async throws {
        let world = ScriptedWorld()
        let diagnosis = try await world.diagnose(ScriptedWorld.pds)
        #expect(diagnosis.status("par-request") == .pass, "\(diagnosis.problems)")
        #expect(!diagnosis.checks.contains { $0.check.hasPrefix("as-") && $0.status == .fail })

        let transport = world.transport()
        let request = try await Self.startSignIn(in: world, over: transport)
        #expect(request.issuer == ScriptedWorld.issuer)
        #expect(request.url.absoluteString.hasPrefix("\(ScriptedWorld.issuer)/oauth/authorize?"))
        let pushed = transport.requests.filter { $0.url.absoluteString == ScriptedWorld.parEndpoint }
        #expect(pushed.count == 2, "the nonce challenge is answered once")
        #expect(pushed.allSatisfy { $0.headers["DPoP"] != nil })
        let form = String(decoding: pushed.last?.body ?? Data(), as: UTF8.self)
        #expect(form.contains("code_challenge_method=S256"))
        #expect(form.contains("client_id=http%3A%2F%2Flocalhost") || form.contains("client_id=http://localhost"))
    }

    /// Starts a sign-in at the PDS, as the loopback development client, through `transport`; no DNS is asked.
    static func startSignIn(
        in world: ScriptedWorld,
        over transport: ScriptedTransport
    ) async throws
        -> AuthorizationRequest
    {
        let manager = SessionManager(
            keystore: InMemoryKeystore(),
            transport: transport,
            addressResolver: FakeAddressResolver(table: world.addresses),
            now: { [now = world.now] in now }
        )
        let client = try OAuthClient.loopback(redirectURI: URL(staticString: "http://127.0.0.1:8765/callback"))
        return try await manager.startSignIn(ScriptedWorld.pds, client: client)
    }
}
