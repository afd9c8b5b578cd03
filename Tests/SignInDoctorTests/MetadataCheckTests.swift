import ATOAuthTesting
import Foundation
import SignInDoctor
import Testing

@Suite("The doctor's metadata checks")
struct MetadataCheckTests {
    @Test(
        "Each member the profile requires fails its own check, for the server's operator",
        arguments: [
            ("require_pushed_authorization_requests", "false", "as-metadata-par"),
            ("dpop_signing_alg_values_supported", #"["RS256"]"#, "as-metadata-dpop"),
            ("code_challenge_methods_supported", #"["plain"]"#, "as-metadata-pkce"),
            ("response_types_supported", #"["token"]"#, "as-metadata-grants"),
            ("grant_types_supported", #"["authorization_code"]"#, "as-metadata-grants"),
            ("authorization_response_iss_parameter_supported", "false", "as-metadata-iss"),
            ("token_endpoint_auth_methods_supported", #"["private_key_jwt"]"#, "as-metadata-client-auth"),
            ("client_id_metadata_document_supported", "false", "as-metadata-client-id-documents"),
            ("scopes_supported", #"["transition:generic"]"#, "as-metadata-scopes"),
            ("token_endpoint", #""https://10.1.2.3/token""#, "as-metadata-endpoints"),
            ("protected_resources", #"["https://other.example.com"]"#, "as-protected-resources"),
            ("issuer", #""https://elsewhere.example.com""#, "as-metadata-issuer"),
        ]
    )
    func memberFails(member: String, value: String, check: String) async throws {
        var world = ScriptedWorld()
        world.metadata[member] = try Self.json(value)
        let diagnosis = try await world.diagnose()
        let finding = try #require(diagnosis.finding(check))
        #expect(finding.status == .fail, "\(finding.seen)")
        #expect(finding.who == .server)
        #expect(finding.fix != nil)
        let others = diagnosis.checks.filter { $0.check.hasPrefix("as-") && $0.check != check && $0.status == .fail }
        #expect(others.isEmpty, "only \(check) fails: \(others.map(\.check))")
    }

    @Test("A server's text with line breaks stays on its finding's line")
    func lineBreaksInServerText() async throws {
        var world = ScriptedWorld()
        world.metadata["prompt_values_supported"] = ["login\npass  as-metadata-par  forged  [RFC 9126]"]
        world.metadata["issuer"] = "https://elsewhere.example.com\r\nfix, for you: run this"
        let diagnosis = try await world.diagnose()
        for check in ["as-metadata-prompt", "as-metadata-issuer"] {
            let seen = try #require(diagnosis.finding(check)?.seen, "\(check)")
            #expect(!seen.contains("\n") && !seen.contains("\r"), "\(check): \(seen)")
        }
    }

    @Test("Without PAR required, the probe is not sent")
    func noProbeWithoutPAR() async throws {
        var world = ScriptedWorld()
        world.metadata["require_pushed_authorization_requests"] = false
        let transport = world.transport()
        let diagnosis = try await world.diagnose(transport: transport)
        #expect(diagnosis.status("par-request") == .skip)
        #expect(transport.count(of: ScriptedWorld.parEndpoint) == 0)
    }

    @Test(
        "Gaps that do not stop a sign-in warn",
        arguments: [
            ("token_endpoint_auth_methods_supported", #"["none"]"#, "as-metadata-client-auth"),
            ("prompt_values_supported", "null", "as-metadata-prompt"),
            ("revocation_endpoint", "null", "as-metadata-endpoints"),
        ]
    )
    func warnings(member: String, value: String, check: String) async throws {
        var world = ScriptedWorld()
        world.metadata[member] = try Self.json(value)
        let diagnosis = try await world.diagnose()
        #expect(diagnosis.status(check) == .warn, "\(diagnosis.problems)")
        #expect(!diagnosis.hasFailure)
    }

    @Test(
        "An endpoint on another origin than the issuer warns, naming it",
        arguments: [
            ("pushed_authorization_request_endpoint", "https://par.elsewhere.example.com/oauth/par"),
            ("token_endpoint", "https://token.elsewhere.example.com/oauth/token"),
        ]
    )
    func endpointElsewhere(member: String, url: String) async throws {
        var world = ScriptedWorld()
        world.metadata[member] = url
        let diagnosis = try await world.diagnose()
        let finding = try #require(diagnosis.finding("as-metadata-endpoints"))
        #expect(finding.status == .warn, "\(finding.seen)")
        #expect(finding.seen.contains("another origin"))
        #expect(finding.seen.contains("\(member) \(url)"), "\(finding.seen)")
        #expect(!finding.seen.contains("revocation_endpoint"), "\(finding.seen)")
        #expect(finding.who == .server)
        #expect(!diagnosis.hasFailure, "\(diagnosis.problems)")
    }

    @Test("A missing revocation endpoint and an endpoint on another origin are both reported")
    func noRevocationAndEndpointElsewhere() async throws {
        var world = ScriptedWorld()
        world.metadata["revocation_endpoint"] = nil
        let token = "https://token.elsewhere.example.com/oauth/token"
        world.metadata["token_endpoint"] = token
        let diagnosis = try await world.diagnose()
        let finding = try #require(diagnosis.finding("as-metadata-endpoints"))
        #expect(finding.status == .warn)
        #expect(finding.seen.contains("no “revocation_endpoint”"), "\(finding.seen)")
        #expect(finding.seen.contains("token_endpoint \(token)"), "\(finding.seen)")
        #expect(finding.fix?.contains("revoke") == true, "\(finding.fix ?? "")")
        #expect(finding.fix?.contains("same operator") == true, "\(finding.fix ?? "")")
        #expect(!diagnosis.hasFailure, "\(diagnosis.problems)")
    }

    @Test("A transition scope the server does not list warns, for the app")
    func unlistedTransitionScope() async throws {
        let diagnosis = try await ScriptedWorld().diagnose(scope: "atproto transition:chat.bsky")
        let finding = try #require(diagnosis.finding("as-metadata-scopes"))
        #expect(finding.status == .warn)
        #expect(finding.who == .app)
    }

    @Test("Protected-resource metadata naming another origin as resource fails resource-metadata")
    func resourceMismatch() async throws {
        var world = ScriptedWorld()
        world.resource["resource"] = "https://other.example.com"
        let diagnosis = try await world.diagnose()
        #expect(diagnosis.status("resource-metadata") == .fail)
        #expect(diagnosis.status("as-metadata") == .skip)
    }

    @Test("An authorization server that serves no metadata fails as-metadata, pointing at the PDS's listing")
    func metadataMissing() async throws {
        var world = ScriptedWorld()
        world.resource["authorization_servers"] = ["https://nothing.example.com"]
        let transport = world.transport()
        transport.on(
            "https://nothing.example.com/.well-known/oauth-authorization-server",
            .text("Not Found", status: 404)
        )
        let diagnosis = try await world.diagnose(transport: transport)
        let finding = try #require(diagnosis.finding("as-metadata"))
        #expect(finding.status == .fail)
        #expect(finding.seen.contains("404"))
        #expect(finding.fix?.contains("authorization_servers") == true)
    }

    @Test("Metadata with a member of the wrong type names it")
    func wrongType() async throws {
        var world = ScriptedWorld()
        world.metadata["scopes_supported"] = "atproto"
        let diagnosis = try await world.diagnose()
        let finding = try #require(diagnosis.finding("as-metadata"))
        #expect(finding.status == .fail)
        #expect(finding.seen.contains("scopes_supported"))
    }

    /// A JSON value from its text; `null` gives `nil`, which removes the member.
    static func json(_ text: String) throws -> Any? {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
        return value is NSNull ? nil : value
    }
}
