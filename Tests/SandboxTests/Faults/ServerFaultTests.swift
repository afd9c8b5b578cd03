import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("Faults of a misconfigured server: issuer, iss, handle, protected resource metadata, refused scopes")
struct ServerFaultTests {
    /// The JSON object at `path` of `origin`, which must answer 200.
    static func json(_ sandbox: SandboxHarness, _ origin: URL, _ path: String) async throws -> [String: Any] {
        let response = try await sandbox.transport.send(HTTPRequest(url: origin.appending(path: path)))
        #expect(response.status == 200, "\(path): \(response.text)")
        return try response.json()
    }

    /// `com.atproto.identity.resolveHandle` on the PDS.
    static func resolveHandle(_ sandbox: SandboxHarness, _ handle: String) async throws -> HTTPResponse {
        var components = try #require(
            URLComponents(
                url: sandbox.endpoints.pds.appending(path: "xrpc/com.atproto.identity.resolveHandle"),
                resolvingAgainstBaseURL: false
            )
        )
        components.queryItems = [URLQueryItem(name: "handle", value: handle)]
        return try await sandbox.transport.send(HTTPRequest(url: try #require(components.url)))
    }

    @Test("issuerMismatch: the metadata's issuer is the origin with localhost; endpoints and the PDS's issuer stay")
    func issuerMismatch() async throws {
        let configuration = SandboxConfiguration(autoApprove: true, faults: SandboxFaults(issuerMismatch: true))
        try await withSandbox(configuration) { sandbox in
            let origin = sandbox.endpoints.authorizationServer
            let metadata = try await Self.json(sandbox, origin, ".well-known/oauth-authorization-server")
            let port = try #require(origin.port)
            #expect(metadata["issuer"] as? String == "http://localhost:\(port)")
            #expect(metadata["issuer"] as? String != sandbox.endpoints.issuer)
            #expect(metadata["token_endpoint"] as? String == sandbox.endpoints.issuer + "/oauth/token")
            #expect(
                metadata["pushed_authorization_request_endpoint"] as? String == sandbox.endpoints.issuer + "/oauth/par"
            )
            #expect(metadata["authorization_response_iss_parameter_supported"] as? Bool == true)
            let resource = try await Self.json(sandbox, sandbox.endpoints.pds, ".well-known/oauth-protected-resource")
            #expect(resource["authorization_servers"] as? [String] == [sandbox.endpoints.issuer])

            sandbox.server.updateConfiguration { $0.faults.issuerMismatch = false }
            let fixed = try await Self.json(sandbox, origin, ".well-known/oauth-authorization-server")
            #expect(fixed["issuer"] as? String == sandbox.endpoints.issuer)
        }
    }

    @Test("noIssParameter: the metadata says false, and approving, auto-approving or denying redirects without iss")
    func noIssParameter() async throws {
        let configuration = SandboxConfiguration(autoApprove: false, faults: SandboxFaults(noIssParameter: true))
        try await withSandbox(configuration) { sandbox in
            let metadata = try await Self.json(
                sandbox,
                sandbox.endpoints.authorizationServer,
                ".well-known/oauth-authorization-server"
            )
            #expect(metadata["authorization_response_iss_parameter_supported"] as? Bool == false)
            #expect(metadata["issuer"] as? String == sandbox.endpoints.issuer)

            let client = sandbox.client()
            let alice = SandboxAccount(handle: "alice.test")
            let authorizeURL = client.url(sandbox.endpoints.authorizationServer, "oauth/authorize")
            for decision in ["approve", "deny"] {
                let flow = FlowSecrets()
                let page = try await client.openAuthorization(requestURI: try await client.pushAuthorization(flow))
                let csrf = try AuthorizationFlowTests.csrfToken(in: page.text)
                let redirect = try await client.send(
                    client.formRequest(
                        authorizeURL,
                        [("csrf_token", csrf), ("account", alice.did), ("decision", decision)]
                    )
                )
                #expect(redirect.status == 303, "\(decision)")
                let query = try redirect.locationQuery()
                #expect(query["state"] == flow.state)
                #expect(query["iss"] == nil, "\(decision)")
                #expect((query["code"] != nil) == (decision == "approve"))
            }

            sandbox.server.updateConfiguration { $0.autoApprove = true }
            let flow = FlowSecrets()
            let redirect = try await client.openAuthorization(requestURI: try await client.pushAuthorization(flow))
            #expect(redirect.status == 302)
            let query = try redirect.locationQuery()
            #expect(query["code"] != nil)
            #expect(query["iss"] == nil)
        }
    }

    @Test("didDocumentNamesOtherHandle: the DID document names at://other-<handle>; the handle still resolves")
    func didDocumentNamesOtherHandle() async throws {
        let faults = SandboxFaults(didDocumentNamesOtherHandle: true)
        try await withSandbox(SandboxConfiguration(autoApprove: true, faults: faults)) { sandbox in
            for account in SandboxAccount.defaults {
                let document = try await Self.json(sandbox, sandbox.endpoints.plcDirectory, account.did)
                #expect(document["id"] as? String == account.did)
                #expect(document["alsoKnownAs"] as? [String] == ["at://other-\(account.handle)"])
            }
            let alice = SandboxAccount(handle: "alice.test")
            #expect(try await Self.resolveHandle(sandbox, "alice.test").json()["did"] as? String == alice.did)
            let other = try await Self.resolveHandle(sandbox, "other-alice.test")
            #expect(other.status == 400)
            #expect(other.errorCode == "HandleNotFound")
            #expect(try other.json()["message"] as? String == "Unable to resolve handle")
            for notAHandle in [alice.did, "alice..test", "-alice.test"] {
                let refused = try await Self.resolveHandle(sandbox, notAHandle)
                #expect(refused.status == 400 && refused.errorCode == "InvalidHandle", "\(notAHandle)")
            }
        }
    }

    @Test("prmNamesOtherServer: the PDS names the PLC directory, which serves no authorization server metadata")
    func prmNamesOtherServer() async throws {
        try await withSandbox { sandbox in
            sandbox.server.updateConfiguration { $0.faults.prmNamesOtherServer = true }
            let plc = sandbox.endpoints.plcDirectory
            let resource = try await Self.json(sandbox, sandbox.endpoints.pds, ".well-known/oauth-protected-resource")
            #expect(resource["authorization_servers"] as? [String] == [plc.absoluteString])
            #expect(resource["resource"] as? String == sandbox.endpoints.pds.absoluteString)
            let missing = try await sandbox.transport.send(
                HTTPRequest(url: plc.appending(path: ".well-known/oauth-authorization-server"))
            )
            #expect(missing.status == 404)
        }
    }

    @Test("refusedScopes: a PAR asking for a refused token, in any spelling of it, gets 400 invalid_scope")
    func refusedScopes() async throws {
        try await withSandbox { sandbox in
            sandbox.server.updateConfiguration { $0.faults.refusedScopes = ["transition:generic"] }
            let client = sandbox.client()
            let refused = try await client.pushedAuthorizationResponse(client.parParameters(FlowSecrets()))
            #expect(refused.status == 400)
            #expect(refused.errorCode == "invalid_scope")
            #expect(
                try refused.json()["error_description"] as? String
                    == "the scope transition:generic is not accepted by this server"
            )
            #expect(sandbox.server.counters.rejections(.invalidScope) == 1)

            // Compared in canonical form: repo?collection=x is refused as repo:x.
            sandbox.server.updateConfiguration { $0.faults.refusedScopes = ["repo?collection=app.bsky.feed.post"] }
            let repoClient = sandbox.client(registering: "atproto repo:app.bsky.feed.post")
            let canonical = try await repoClient.pushedAuthorizationResponse(repoClient.parParameters(FlowSecrets()))
            #expect(canonical.status == 400)
            #expect(canonical.errorCode == "invalid_scope")
            let description = try #require(try canonical.json()["error_description"] as? String)
            #expect(description.hasPrefix("the scope repo"), "\(description)")
            #expect(description.contains("app.bsky.feed.post"), "\(description)")
            #expect(description.hasSuffix("is not accepted by this server"), "\(description)")

            sandbox.server.updateConfiguration { $0.faults.refusedScopes = ["blob:*/*"] }
            let accepted = try await client.pushedAuthorizationResponse(client.parParameters(FlowSecrets()))
            #expect(accepted.status == 201, "\(accepted.text)")
        }
    }

    @Test("a PAR including a permission set the sandbox does not publish gets 400 invalid_scope: not resolved")
    func unpublishedPermissionSet() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client(registering: "atproto include:com.example.unknownSet")
            let response = try await client.pushedAuthorizationResponse(client.parParameters(FlowSecrets()))
            #expect(response.status == 400)
            #expect(response.errorCode == "invalid_scope")
            let description = try #require(try response.json()["error_description"] as? String)
            #expect(description.contains("com.example.unknownSet"), "\(description)")
            #expect(description.contains("could not be resolved"), "\(description)")
        }
    }
}
