import ATOAuthTesting
import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("The authorization page shows who asks and what for, and a spent one says so")
struct AuthorizationPageTests {
    static let clientID = "https://myapp.example.app/client-metadata.json"
    static let redirectURI = "app.example.myapp:/callback"

    /// A configured native client's document, with `changes` merged in.
    static func configuration(_ changes: [String: String]) throws -> SandboxConfiguration {
        var metadata: [String: Any] = [
            "client_id": clientID, "application_type": "native", "token_endpoint_auth_method": "none",
            "dpop_bound_access_tokens": true, "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"], "scope": "atproto transition:generic", "redirect_uris": [redirectURI],
        ]
        metadata.merge(changes) { _, new in new }
        let document = try JSONSerialization.data(withJSONObject: metadata)
        return SandboxConfiguration(autoApprove: false, clientMetadataDocuments: [clientID: document])
    }

    static let described = [
        "client_name": "My <App> & Co", "logo_uri": "https://myapp.example.app/logo.png",
        "client_uri": "https://myapp.example.app/",
    ]

    @Test("a hosted client's name and logo are shown escaped, with the permissions in words beside their tokens")
    func describedClient() async throws {
        try await withSandbox(try Self.configuration(Self.described)) { sandbox in
            let client = sandbox.client(redirectURI: Self.redirectURI, clientID: Self.clientID)
            let flow = FlowSecrets()
            let page = try await client.openAuthorization(requestURI: try await client.pushAuthorization(flow))
            #expect(page.status == 200)
            let html = page.text
            #expect(html.contains(#"<strong id="client-name">My &lt;App&gt; &amp; Co</strong>"#))
            #expect(html.contains(#"<img class="logo" src="https://myapp.example.app/logo.png""#))
            #expect(html.contains("<code>\(Self.clientID)</code>"))
            #expect(page.headers["Content-Security-Policy"]?.hasSuffix("; img-src https://myapp.example.app") == true)
            #expect(html.contains("use AT Protocol OAuth (required) <small><code>atproto</code></small>"))
            #expect(
                html.contains(
                    "broad access: every record, blob and service call but chat "
                        + "<small><code>transition:generic</code></small>"
                )
            )
            #expect(html.contains(#"id="approve""#) && html.contains(#"id="deny""#))

            let approved = try await client.send(
                client.formRequest(
                    client.url(sandbox.endpoints.authorizationServer, "oauth/authorize"),
                    [
                        ("csrf_token", try AuthorizationFlowTests.csrfToken(in: html)),
                        ("account", SandboxAccount(handle: "alice.test").did), ("decision", "approve"),
                    ]
                )
            )
            #expect(approved.status == 303)
            #expect(try approved.locationQuery()["state"] == flow.state)
        }
    }

    @Test("a hostile name is escaped, and a logo that is not https is not shown")
    func hostileDocument() async throws {
        let hostile = [
            "client_name": "<script>alert(1)</script>", "logo_uri": "javascript:alert(1)",
            "client_uri": "javascript:alert(2)",
        ]
        try await withSandbox(try Self.configuration(hostile)) { sandbox in
            let client = sandbox.client(redirectURI: Self.redirectURI, clientID: Self.clientID)
            let requestURI = try await client.pushAuthorization(FlowSecrets())
            let page = try await client.openAuthorization(requestURI: requestURI)
            #expect(page.status == 200)
            #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(!page.text.contains("<script"))
            #expect(!page.text.contains("<img"))
            #expect(!page.text.contains("javascript:"))
            #expect(page.headers["Content-Security-Policy"]?.contains("img-src") == false)

            let reloaded = try await client.openAuthorization(requestURI: requestURI)
            #expect(reloaded.text.contains("This sign-in page was already used"))
            #expect(!reloaded.text.contains("<a "))
            #expect(!reloaded.text.contains("javascript:"))
        }
    }

    @Test("a plain http logo is not shown")
    func plainHTTPLogo() async throws {
        let configuration = try Self.configuration([
            "client_name": "My App", "logo_uri": "http://myapp.example.app/logo.png",
        ])
        try await withSandbox(configuration) { sandbox in
            let client = sandbox.client(redirectURI: Self.redirectURI, clientID: Self.clientID)
            let page = try await client.openAuthorization(requestURI: try await client.pushAuthorization(FlowSecrets()))
            #expect(page.text.contains(#"<strong id="client-name">My App</strong>"#))
            #expect(!page.text.contains("<img"))
        }
    }

    @Test("the loopback development client is shown by its client_id, its permissions in words")
    func loopbackClient() async throws {
        try await withSandbox(SandboxConfiguration(autoApprove: false)) { sandbox in
            let client = sandbox.client()
            let page = try await client.openAuthorization(requestURI: try await client.pushAuthorization(FlowSecrets()))
            #expect(page.status == 200)
            #expect(page.text.contains("The application <code>http://localhost?redirect_uri="))
            #expect(!page.text.contains("client-name") && !page.text.contains("<img"))
            #expect(page.text.contains("use AT Protocol OAuth (required) <small><code>atproto</code></small>"))
        }
    }

    @Test("a reloaded page says it was already used and links back to the client_uri, never the redirect URI")
    func reloadedPage() async throws {
        try await withSandbox(try Self.configuration(Self.described)) { sandbox in
            let client = sandbox.client(redirectURI: Self.redirectURI, clientID: Self.clientID)
            let requestURI = try await client.pushAuthorization(FlowSecrets())
            #expect(try await client.openAuthorization(requestURI: requestURI).status == 200)
            for attempt in 1...2 {
                let reloaded = try await client.openAuthorization(requestURI: requestURI)
                #expect(reloaded.status == 400)
                #expect(reloaded.headers["Location"] == nil)
                let html = reloaded.text
                #expect(html.contains("This sign-in page was already used"))
                #expect(html.contains("Go back to the application and start the sign-in again."))
                #expect(
                    html.contains(
                        #"<a id="back-to-app" href="https://myapp.example.app/" rel="noopener noreferrer">"#
                            + "Back to My &lt;App&gt; &amp; Co</a>"
                    )
                )
                #expect(!html.contains(Self.redirectURI))
                #expect(sandbox.server.counters.rejections(.invalidRequestURI) == attempt)
            }
        }
    }

    @Test("an expired page says it has expired, and so does a reload of it")
    func expiredPage() async throws {
        try await withSandbox(try Self.configuration(Self.described)) { sandbox in
            let client = sandbox.client(redirectURI: Self.redirectURI, clientID: Self.clientID)
            let requestURI = try await client.pushAuthorization(FlowSecrets())
            sandbox.clock.advance(by: 301)
            for _ in 1...2 {
                let expired = try await client.openAuthorization(requestURI: requestURI)
                #expect(expired.status == 400)
                #expect(expired.text.contains("This sign-in page has expired"))
                #expect(expired.text.contains("Go back to the application and start the sign-in again."))
                #expect(expired.text.contains(#"href="https://myapp.example.app/""#))
                #expect(!expired.text.contains(Self.redirectURI))
            }
        }
    }

    @Test("a spent page of a client without a client_uri links nowhere, and an unknown one says it is not known")
    func spentWithoutHomePage() async throws {
        try await withSandbox(SandboxConfiguration(autoApprove: false)) { sandbox in
            let client = sandbox.client()
            let requestURI = try await client.pushAuthorization(FlowSecrets())
            _ = try await client.openAuthorization(requestURI: requestURI)
            let reloaded = try await client.openAuthorization(requestURI: requestURI)
            #expect(reloaded.text.contains("This sign-in page was already used"))
            #expect(!reloaded.text.contains("<a "))
            #expect(!reloaded.text.contains("127.0.0.1:54321"))

            let unknown = try await client.openAuthorization(requestURI: "urn:ietf:params:oauth:request_uri:req-nope")
            #expect(unknown.status == 400)
            #expect(unknown.text.contains("This sign-in page is not known"))
            #expect(unknown.text.contains("Go back to the application and start the sign-in again."))
        }
    }
}
