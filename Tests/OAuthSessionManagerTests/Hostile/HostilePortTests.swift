import ATOAuthTesting
import ATProtoIdentity
import Failures
import Foundation
import OAuthSessionManager
import Testing

/// A hostile PLC directory, PDS or authorization server names a port that is not a TCP port (RFC 3986 §3.2.3 allows
/// any digits; RFC 9293 §3.1 ports have 16 bits): the URL is refused where it is parsed, as a failed security check,
/// before anything is sent to it, and nothing is stored.
@Suite("Hostile ports are refused where they are parsed", .serialized, .timeLimit(.minutes(1)))
struct HostilePortTests {
    /// Ports no TCP connection can use: too large for 16 bits, too large for an `Int` (Foundation drops it), zero.
    static let ports = ["70000", "99999999999999999999", "0", "65536"]

    /// A metadata member that carries a URL, and the error that refuses it.
    enum MetadataField: String, CaseIterable, Sendable {
        case authorizationServers = "authorization_servers"
        case resource
        case issuer
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case tokenEndpoint = "token_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case authorizationEndpoint = "authorization_endpoint"

        /// Sets this member of alice's metadata to a URL on `port`.
        func apply(port: String, to script: inout HostileScript) {
            let origin = script.origin
            let hostile = "http://127.0.0.1:\(port)"
            switch self {
            case .authorizationServers: script.protectedResources[origin]?.authorizationServers = [hostile]
            case .resource: script.protectedResources[origin]?.resource = hostile
            case .issuer: script.authorizationServers[origin]?.issuer = hostile
            case .pushedAuthorizationRequestEndpoint:
                script.authorizationServers[origin]?.pushedAuthorizationRequestEndpoint = hostile + "/oauth/par"
            case .tokenEndpoint: script.authorizationServers[origin]?.tokenEndpoint = hostile + "/oauth/token"
            case .revocationEndpoint:
                script.authorizationServers[origin]?.revocationEndpoint = hostile + "/oauth/revoke"
            case .authorizationEndpoint:
                script.authorizationServers[origin]?.authorizationEndpoint = hostile + "/oauth/authorize"
            }
        }

        /// The refusal expected when this member is hostile.
        var expected: SessionError {
            switch self {
            case .authorizationServers, .resource: .invalidProtectedResourceMetadata("", field: rawValue)
            default: .invalidAuthorizationServerMetadata("", field: rawValue)
            }
        }
    }

    @Test("a DID document whose PDS endpoint names an unusable port is refused", arguments: ports)
    func pdsEndpoint(_ port: String) async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.documents[HostileScript.aliceDID]?.pds = "http://127.0.0.1:\(port)" }
            let error = await #expect(throws: IdentityError.self) { try await scene.start() }
            expectRefusal(error, .invalidDIDDocument("", field: "serviceEndpoint"))
            #expect(scene.requests(to: "/.well-known/oauth-protected-resource").isEmpty)
            scene.expectNoPAR()
            try scene.expectNothingStored()
        }
    }

    @Test(
        "metadata naming an unusable port is refused before the PAR",
        arguments: MetadataField.allCases,
        ["70000", "99999999999999999999"]
    )
    func metadataField(_ field: MetadataField, _ port: String) async throws {
        try await HostileScene.run { scene in
            scene.hostile { field.apply(port: port, to: &$0) }
            let error = await #expect(throws: SessionError.self) { try await scene.start() }
            expectRefusal(error, field.expected)
            #expect(error?.category == .securityCheckFailed)
            scene.expectNoPAR()
            try scene.expectNothingStored()
        }
    }

    @Test("a PDS URL typed with an unusable port is a usage error", arguments: ports)
    func typedServer(_ port: String) async throws {
        try await HostileScene.run { scene in
            let error = await #expect(throws: IdentityError.self) { try await scene.start("http://127.0.0.1:\(port)") }
            #expect(error?.category == .usage)
            #expect(scene.server.requests.isEmpty)
            try scene.expectNothingStored()
        }
    }
}
