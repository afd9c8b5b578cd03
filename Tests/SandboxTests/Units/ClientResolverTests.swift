import Testing

@testable import Sandbox

@Suite("Loopback client rules")
struct ClientResolverTests {
    @Test("a bare http://localhost client gets the default loopback redirect URIs and the atproto scope")
    func defaults() throws {
        let client = try ClientResolver.resolve("http://localhost")
        #expect(client.redirectURIs == ["http://127.0.0.1/", "http://[::1]/"])
        #expect(client.scopes == ["atproto"])
        try ClientResolver.checkRedirectURI("http://127.0.0.1:8080/", for: client)
        try ClientResolver.checkRedirectURI("http://[::1]:8080/", for: client)
    }

    @Test("the port is ignored only when the registered redirect URI has none")
    func portMatching() throws {
        let withoutPort = try ClientResolver.resolve("http://localhost/?redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb")
        try ClientResolver.checkRedirectURI("http://127.0.0.1:1234/cb", for: withoutPort)
        #expect(throws: ClientResolver.Refusal.self) {
            try ClientResolver.checkRedirectURI("http://127.0.0.1:1234/other", for: withoutPort)
        }
        let withPort = try ClientResolver.resolve("http://localhost?redirect_uri=http%3A%2F%2F127.0.0.1%3A5000%2Fcb")
        try ClientResolver.checkRedirectURI("http://127.0.0.1:5000/cb", for: withPort)
        #expect(throws: ClientResolver.Refusal.self) {
            try ClientResolver.checkRedirectURI("http://127.0.0.1:5001/cb", for: withPort)
        }
    }

    @Test(
        "client ids outside the loopback profile are refused",
        arguments: [
            "http://localhost:8080", "http://localhost/path", "http://127.0.0.1", "https://localhost",
            "http://localhost?redirect_uri=http%3A%2F%2Flocalhost%2Fcb", "http://localhost?scope=transition%3Ageneric",
            "http://localhost?client_name=x", "http://localhost#fragment", "not a url",
        ]
    )
    func refusals(clientID: String) {
        #expect(throws: ClientResolver.Refusal.self) { try ClientResolver.resolve(clientID) }
    }
}
