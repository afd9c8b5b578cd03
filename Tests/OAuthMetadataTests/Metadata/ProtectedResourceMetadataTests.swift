import ATOAuthTesting
import Failures
import Foundation
import OAuthMetadata
import Testing

@Suite("Protected resource metadata must name the PDS and exactly one authorization server")
struct ProtectedResourceMetadataTests {
    func metadata(
        _ object: [String: Any],
        allowHTTPLoopback: Bool = false,
        pds: String = Fixtures.pds
    ) throws
        -> ProtectedResourceMetadata
    {
        try ProtectedResourceMetadata(
            json: try Fixtures.data(object),
            pds: try url(pds),
            allowHTTPLoopback: allowHTTPLoopback
        )
    }

    func failure(_ object: [String: Any], allowHTTPLoopback: Bool = false) -> MetadataError? {
        #expect(throws: MetadataError.self) { try metadata(object, allowHTTPLoopback: allowHTTPLoopback) }
    }

    @Test("good metadata gives the one issuer")
    func good() throws {
        let parsed = try metadata(Fixtures.protectedResource())
        #expect(parsed.resource == Fixtures.pds)
        #expect(parsed.authorizationServer == Fixtures.issuer)
    }

    @Test(
        "a resource other than the PDS origin is refused",
        arguments: [
            "https://evil.example.com", "https://pds.example.com/", "https://PDS.example.com", "http://pds.example.com",
        ]
    )
    func otherResource(_ resource: String) {
        let error = failure(Fixtures.protectedResource(resource: resource))
        #expect(error?.field == "resource")
        #expect(error?.category == .securityCheckFailed)
        #expect(error?.code == .invalidProtectedResourceMetadata)
    }

    @Test("two authorization servers are refused")
    func twoServers() {
        let error = failure(Fixtures.protectedResource(servers: [Fixtures.issuer, "https://evil.example.com"]))
        #expect(error?.field == "authorization_servers")
    }

    @Test("no authorization server is refused")
    func noServer() {
        #expect(failure(Fixtures.protectedResource(servers: []))?.field == "authorization_servers")
        #expect(failure(["resource": Fixtures.pds])?.field == "authorization_servers")
    }

    @Test(
        "an issuer that is not an https origin is refused",
        arguments: ["http://auth.example.com", "https://auth.example.com?x", "https://auth.example.com/path", "auth"]
    )
    func badIssuer(_ issuer: String) {
        #expect(failure(Fixtures.protectedResource(servers: [issuer]))?.field == "authorization_servers")
    }

    @Test("an http loopback issuer is accepted in development mode")
    func developmentIssuer() throws {
        let object = Fixtures.protectedResource(resource: "http://localhost:2583", servers: ["http://localhost:2583"])
        let parsed = try metadata(object, allowHTTPLoopback: true, pds: "http://localhost:2583")
        #expect(parsed.authorizationServer == "http://localhost:2583")
    }

    @Test("a member of the wrong type is named")
    func wrongType() {
        #expect(
            failure(["resource": Fixtures.pds, "authorization_servers": Fixtures.issuer])?.field
                == "authorization_servers"
        )
        #expect(failure(["resource": 7, "authorization_servers": [Fixtures.issuer]])?.field == "resource")
        #expect(failure(["authorization_servers": [Fixtures.issuer]])?.field == "resource")
    }
}
