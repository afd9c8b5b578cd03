import Failures
import Foundation
import OAuthMetadata
import Testing

@Suite("Authorization server metadata must support everything the AT Protocol profile needs")
struct AuthorizationServerMetadataTests {
    enum Value: Sendable {
        case removed
        case bool(Bool)
        case string(String)
        case strings([String])
    }

    struct Change: Sendable, CustomTestStringConvertible {
        let field: String
        let value: Value
        var testDescription: String { "\(field) = \(value)" }
    }

    func metadata(_ changes: [Change], allowHTTPLoopback: Bool = false) throws -> AuthorizationServerMetadata {
        var object = Fixtures.authorizationServer()
        for change in changes {
            switch change.value {
            case .removed: object[change.field] = nil
            case .bool(let value): object[change.field] = value
            case .string(let value): object[change.field] = value
            case .strings(let value): object[change.field] = value
            }
        }
        return try AuthorizationServerMetadata(
            json: try Fixtures.data(object),
            issuer: Fixtures.issuer,
            allowHTTPLoopback: allowHTTPLoopback
        )
    }

    @Test("good metadata gives the endpoints")
    func good() throws {
        let parsed = try metadata([])
        #expect(parsed.issuer == Fixtures.issuer)
        #expect(parsed.authorizationEndpoint.absoluteString == "\(Fixtures.issuer)/oauth/authorize")
        #expect(parsed.tokenEndpoint.absoluteString == "\(Fixtures.issuer)/oauth/token")
        #expect(parsed.pushedAuthorizationRequestEndpoint.absoluteString == "\(Fixtures.issuer)/oauth/par")
        #expect(parsed.revocationEndpoint?.absoluteString == "\(Fixtures.issuer)/oauth/revoke")
        #expect(parsed.scopesSupported.contains("atproto"))
    }

    @Test("the revocation endpoint is optional")
    func noRevocation() throws {
        #expect(try metadata([Change(field: "revocation_endpoint", value: .removed)]).revocationEndpoint == nil)
    }

    @Test(
        "each required member that is missing or wrong fails the check naming it",
        arguments: [
            Change(field: "issuer", value: .removed),
            Change(field: "issuer", value: .string("https://evil.example.com")),
            Change(field: "issuer", value: .string("https://auth.example.com/")),
            Change(field: "authorization_endpoint", value: .removed),
            Change(field: "authorization_endpoint", value: .string("http://auth.example.com/oauth/authorize")),
            Change(field: "token_endpoint", value: .removed),
            Change(field: "token_endpoint", value: .string("http://auth.example.com/oauth/token")),
            Change(field: "token_endpoint", value: .string("https://10.0.0.1/oauth/token")),
            Change(field: "require_pushed_authorization_requests", value: .removed),
            Change(field: "require_pushed_authorization_requests", value: .bool(false)),
            Change(field: "pushed_authorization_request_endpoint", value: .removed),
            Change(field: "pushed_authorization_request_endpoint", value: .string("https://auth.example.com/par#x")),
            Change(field: "client_id_metadata_document_supported", value: .removed),
            Change(field: "client_id_metadata_document_supported", value: .bool(false)),
            Change(field: "authorization_response_iss_parameter_supported", value: .removed),
            Change(field: "authorization_response_iss_parameter_supported", value: .bool(false)),
            Change(field: "code_challenge_methods_supported", value: .strings(["plain"])),
            Change(field: "code_challenge_methods_supported", value: .removed),
            Change(field: "response_types_supported", value: .strings(["token"])),
            Change(field: "response_types_supported", value: .removed),
            Change(field: "grant_types_supported", value: .strings(["authorization_code"])),
            Change(field: "grant_types_supported", value: .removed),
            Change(field: "dpop_signing_alg_values_supported", value: .strings(["RS256", "es256"])),
            Change(field: "dpop_signing_alg_values_supported", value: .removed),
            Change(field: "token_endpoint_auth_methods_supported", value: .strings(["private_key_jwt"])),
            Change(field: "token_endpoint_auth_methods_supported", value: .removed),
            Change(field: "scopes_supported", value: .strings(["transition:generic"])),
            Change(field: "scopes_supported", value: .removed),
            Change(field: "scopes_supported", value: .string("atproto")),
            Change(field: "revocation_endpoint", value: .string("http://auth.example.com/oauth/revoke")),
            Change(field: "require_pushed_authorization_requests", value: .string("true")),
        ]
    )
    func requiredMember(_ change: Change) {
        let error = #expect(throws: MetadataError.self) { try metadata([change]) }
        #expect(error?.field == change.field)
        #expect(error?.category == .securityCheckFailed)
        #expect(error?.code == .invalidAuthorizationServerMetadata)
        #expect(error?.description.contains(change.field) == true)
    }

    @Test("http loopback endpoints are accepted in development mode only")
    func developmentEndpoints() throws {
        let change = Change(field: "token_endpoint", value: .string("http://127.0.0.1:2583/oauth/token"))
        #expect(try metadata([change], allowHTTPLoopback: true).tokenEndpoint.port == 2583)
        #expect(throws: MetadataError.self) { try metadata([change]) }
    }

    @Test("something that is not JSON metadata is refused")
    func notJSON() {
        let error = #expect(throws: MetadataError.self) {
            try AuthorizationServerMetadata(json: Data("<html>".utf8), issuer: Fixtures.issuer)
        }
        #expect(error?.code == .invalidAuthorizationServerMetadata)
    }
}
