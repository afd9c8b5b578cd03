import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("Metadata and identity")
struct MetadataTests {
    @Test("the three origins are distinct loopback origins")
    func distinctOrigins() async throws {
        try await withSandbox { sandbox in
            let urls = [sandbox.endpoints.plcDirectory, sandbox.endpoints.pds, sandbox.endpoints.authorizationServer]
            #expect(Set(urls.map { $0.port }).count == 3)
            for url in urls {
                #expect(url.host == "127.0.0.1")
                #expect(url.scheme == "http")
            }
            #expect(sandbox.endpoints.issuer == sandbox.endpoints.authorizationServer.absoluteString)
        }
    }

    @Test("the authorization server metadata has every field the client checks")
    func authorizationServerMetadata() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let issuer = sandbox.endpoints.issuer
            let response = try await client.send(
                HTTPRequest(
                    url: client.url(sandbox.endpoints.authorizationServer, ".well-known/oauth-authorization-server")
                )
            )
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/json")
            let metadata = try response.json()
            #expect(metadata["issuer"] as? String == issuer)
            #expect(metadata["authorization_endpoint"] as? String == issuer + "/oauth/authorize")
            #expect(metadata["token_endpoint"] as? String == issuer + "/oauth/token")
            #expect(metadata["pushed_authorization_request_endpoint"] as? String == issuer + "/oauth/par")
            #expect(metadata["revocation_endpoint"] as? String == issuer + "/oauth/revoke")
            #expect(metadata["require_pushed_authorization_requests"] as? Bool == true)
            #expect(metadata["authorization_response_iss_parameter_supported"] as? Bool == true)
            #expect(metadata["client_id_metadata_document_supported"] as? Bool == true)
            #expect(metadata["code_challenge_methods_supported"] as? [String] == ["S256"])
            #expect(metadata["dpop_signing_alg_values_supported"] as? [String] == ["ES256"])
            #expect(metadata["token_endpoint_auth_methods_supported"] as? [String] == ["none", "private_key_jwt"])
            #expect(metadata["token_endpoint_auth_signing_alg_values_supported"] as? [String] == ["ES256"])
            #expect(metadata["response_types_supported"] as? [String] == ["code"])
            #expect(metadata["grant_types_supported"] as? [String] == ["authorization_code", "refresh_token"])
            let scopes = try #require(metadata["scopes_supported"] as? [String])
            #expect(scopes.contains("atproto") && scopes.contains("transition:generic"))
        }
    }

    @Test("the protected resource metadata names the PDS and its one issuer")
    func protectedResourceMetadata() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let response = try await client.send(
                HTTPRequest(url: client.url(sandbox.endpoints.pds, ".well-known/oauth-protected-resource"))
            )
            #expect(response.status == 200)
            let metadata = try response.json()
            #expect(metadata["resource"] as? String == sandbox.endpoints.pds.absoluteString)
            #expect(metadata["authorization_servers"] as? [String] == [sandbox.endpoints.issuer])
            #expect(metadata["bearer_methods_supported"] as? [String] == ["header"])
            #expect((metadata["scopes_supported"] as? [String])?.contains("atproto") == true)
        }
    }

    @Test("the PLC directory serves each account's DID document")
    func didDocuments() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            for account in SandboxAccount.defaults {
                #expect(SandboxAccount.isPLCDID(account.did))
                let response = try await client.send(
                    HTTPRequest(url: client.url(sandbox.endpoints.plcDirectory, account.did))
                )
                #expect(response.status == 200)
                let document = try response.json()
                #expect(document["id"] as? String == account.did)
                #expect(document["alsoKnownAs"] as? [String] == ["at://\(account.handle)"])
                let services = try #require(document["service"] as? [[String: Any]])
                let pds = try #require(services.first { $0["id"] as? String == "#atproto_pds" })
                #expect(pds["type"] as? String == "AtprotoPersonalDataServer")
                #expect(pds["serviceEndpoint"] as? String == sandbox.endpoints.pds.absoluteString)
            }
            let unknown = try await client.send(
                HTTPRequest(url: client.url(sandbox.endpoints.plcDirectory, "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"))
            )
            #expect(unknown.status == 404)
        }
    }

    @Test("DIDs are derived from handles, the same on every run")
    func derivedDIDs() {
        let alice = SandboxAccount(handle: "Alice.Test")
        #expect(alice.handle == "alice.test")
        #expect(alice.did == SandboxAccount.derivedDID(for: "alice.test"))
        #expect(SandboxAccount.isPLCDID(alice.did))
        #expect(alice.did != SandboxAccount(handle: "bob.test").did)
    }

    @Test("resolveHandle answers hosted handles without authentication and refuses others")
    func resolveHandle() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let found = try await client.send(
                try client.xrpcRequest(.get, "com.atproto.identity.resolveHandle", query: [("handle", "alice.test")])
            )
            #expect(found.status == 200)
            #expect(try found.json()["did"] as? String == SandboxAccount.derivedDID(for: "alice.test"))
            let missing = try await client.send(
                try client.xrpcRequest(.get, "com.atproto.identity.resolveHandle", query: [("handle", "carol.test")])
            )
            #expect(missing.status == 400)
            #expect(missing.errorCode == "HandleNotFound")
        }
    }

    @Test("the atoauth settings point at the PLC directory and the PDS")
    func atoauthSettings() async throws {
        try await withSandbox { sandbox in
            let environment = sandbox.endpoints.environment
            #expect(environment["ATOAUTH_PLC_DIRECTORY"] == sandbox.endpoints.plcDirectory.absoluteString)
            #expect(environment["ATOAUTH_HANDLE_RESOLVER"] == sandbox.endpoints.pds.absoluteString)
            #expect(environment["ATOAUTH_ALLOW_HTTP_LOOPBACK"] == "1")
            #expect(sandbox.endpoints.shellExports.contains("export ATOAUTH_ALLOW_HTTP_LOOPBACK=1"))
        }
    }
}
