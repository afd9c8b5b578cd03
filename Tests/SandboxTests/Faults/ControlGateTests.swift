import ATOAuthTesting
import Foundation
import Sandbox
import Testing

@Suite("The test-control endpoints answer programs on this machine, not web pages or a rebound DNS name")
struct ControlGateTests {
    /// Sends one request to the authorization server's origin, exactly as written, with `host` (its own address by
    /// default) as `Host`.
    static func send(
        _ method: String,
        _ path: String,
        host: String? = nil,
        fields: [String] = [],
        body: String = "",
        to sandbox: SandboxHarness
    ) async throws -> RawExchange {
        let port = try #require(sandbox.endpoints.authorizationServer.port)
        return try await RawExchange.send(method, path, port: port, host: host, fields: fields, body: body)
    }

    /// Asks, with `fields`, for the `noDPoPNonces` fault.
    static func askForNoNonces(
        host: String? = nil,
        fields: [String],
        to sandbox: SandboxHarness
    ) async throws -> RawExchange {
        let body = #"{"noDPoPNonces": true}"#
        return try await send("POST", "/_sandbox/settings", host: host, fields: fields, body: body, to: sandbox)
    }

    @Test(
        "a form post from a web page cannot change a setting, with or without Origin's sibling Sec-Fetch-Site",
        arguments: [["Origin: https://attacker.example"], ["Sec-Fetch-Site: cross-site"], ["Origin: null"]]
    )
    func browserRefused(fields: [String]) async throws {
        try await withSandbox { sandbox in
            let post = try await Self.askForNoNonces(fields: fields + ["Content-Type: text/plain"], to: sandbox)
            #expect(post.status == 403, "\(post.body)")
            #expect(post.body.contains("not web pages"), "\(post.body)")
            #expect(!sandbox.server.configuration.faults.noDPoPNonces)
            let read = try await Self.send("GET", "/_sandbox/counters", fields: fields, to: sandbox)
            #expect(read.status == 403)
            #expect(sandbox.server.counters.totalRejections == 2)
        }
    }

    @Test("a Host other than the sandbox's loopback address (DNS rebinding) is refused; its loopback names are not")
    func hostChecked() async throws {
        try await withSandbox { sandbox in
            let port = try #require(sandbox.endpoints.authorizationServer.port)
            for host in ["attacker.example:\(port)", "127.0.0.1:\(port + 1)", "127.0.0.1"] {
                let answer = try await Self.send("GET", "/_sandbox/settings", host: host, to: sandbox)
                #expect(answer.status == 403, "\(host): \(answer.body)")
                #expect(answer.body.contains("Host header"), "\(answer.body)")
            }
            for host in ["127.0.0.1:\(port)", "LOCALHOST:\(port)", "[::1]:\(port)"] {
                let answer = try await Self.send("GET", "/_sandbox/settings", host: host, to: sandbox)
                #expect(answer.status == 200, "\(host): \(answer.body)")
            }
            // Typed in the address bar, a GET is read (no page can send `Sec-Fetch-Site: none`); a POST never is.
            let typed = ["Sec-Fetch-Site: none", "Sec-Fetch-Mode: navigate"]
            let read = try await Self.send("GET", "/_sandbox/counters", fields: typed, to: sandbox)
            #expect(read.status == 200, "\(read.body)")
            let post = try await Self.askForNoNonces(fields: typed + ["Content-Type: application/json"], to: sandbox)
            #expect(post.status == 403, "\(post.body)")
            let json = ["Content-Type: application/json"]
            let change = try await Self.askForNoNonces(host: "localhost:\(port)", fields: json, to: sandbox)
            #expect(change.status == 200, "\(change.body)")
            #expect(sandbox.server.configuration.faults.noDPoPNonces)
        }
    }
}
