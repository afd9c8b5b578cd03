import ATOAuthTesting
import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("Client documents on loopback are fetched with limits, and confidential settings change at run time")
struct ClientDocumentFetchTests {
    /// How the served client metadata document is answered wrongly, and a word of the refusal.
    enum FetchFault: CaseIterable, CustomTestStringConvertible, Sendable {
        case redirect, notJSON, tooLarge, notFound, notAnObject

        var testDescription: String {
            switch self {
            case .redirect: "a 302 to another path"
            case .notJSON: "served as text/plain"
            case .tooLarge: "a body over 64 KiB"
            case .notFound: "a 404"
            case .notAnObject: "a JSON array"
            }
        }

        var word: String {
            switch self {
            case .redirect: "redirects are not followed"
            case .notJSON: "not application/json"
            case .tooLarge: "could not be fetched"
            case .notFound: "HTTP 404"
            case .notAnObject: "not a JSON object"
            }
        }

        /// The answer, for a document that would otherwise be `document`.
        func answer(_ document: Data) -> ServedDocuments.Answer? {
            switch self {
            case .redirect:
                return .response(status: 302, headers: [("Location", "/elsewhere.json")], body: Data())
            case .notJSON:
                return .response(status: 200, headers: [("Content-Type", "text/plain")], body: document)
            case .tooLarge:
                let padding = Data(repeating: UInt8(ascii: "a"), count: 70_000)
                return .json(Data(#"{"padding": ""#.utf8) + padding + Data(#""}"#.utf8))
            case .notFound:
                return nil
            case .notAnObject:
                return .json(Data("[1, 2]".utf8))
            }
        }
    }

    @Test("a served client metadata document answered wrongly is refused at the PAR", arguments: FetchFault.allCases)
    func fetchRefusals(_ fault: FetchFault) async throws {
        let key = TestSigningKey(kid: "key-1")
        let served = ServedDocuments()
        try await LoopbackHTTPServer.withServer(handler: served.handler) { server in
            let clientID = server.url("/client-metadata.json").absoluteString
            let redirectURI = "http://127.0.0.1:54321/callback"
            let document = try ConfidentialDocuments.document(clientID: clientID, redirectURI: redirectURI, keys: [key])
            if let answer = fault.answer(document) { served.set("/client-metadata.json", answer) }
            try await withSandbox { sandbox in
                let client = ConfidentialTestClient(sandbox, clientID: clientID, redirectURI: redirectURI)
                let pushed = try await client.pushAuthorization(
                    FlowSecrets(),
                    authentication: try client.authentication(key)
                )
                #expect(pushed.status == 400)
                #expect(pushed.errorCode == "invalid_client")
                let description = try pushed.json()["error_description"] as? String
                #expect(description?.contains(fault.word) == true, "\(description ?? "no description")")
                #expect(server.requests.allSatisfy { $0.path == "/client-metadata.json" })

                // A failure is not cached: once the document is served, the next PAR fetches and takes it.
                served.set("/client-metadata.json", .json(document))
                let retried = try await client.pushAuthorization(
                    FlowSecrets(),
                    authentication: try client.authentication(key)
                )
                #expect(retried.status == 201, "PAR failed: \(retried.text)")
            }
        }
    }

    @Test("a jwks_uri that cannot be had is invalid_client: an https one not configured, a loopback one not served")
    func unavailableJWKS() async throws {
        let key = TestSigningKey(kid: "key-1")
        try await LoopbackHTTPServer.withServer(handler: ServedDocuments().handler) { server in
            let cases = [
                ("https://confidential.example/jwks.json", "not configured"),
                (server.url("/jwks.json").absoluteString, "HTTP 404"),
            ]
            for (jwksURI, word) in cases {
                let document = try ConfidentialDocuments.document(jwksURI: jwksURI)
                let configuration = SandboxConfiguration(
                    autoApprove: true,
                    clientMetadataDocuments: [ConfidentialDocuments.clientID: document]
                )
                try await withSandbox(configuration) { sandbox in
                    let client = ConfidentialTestClient(sandbox)
                    let pushed = try await client.pushAuthorization(
                        FlowSecrets(),
                        authentication: try client.authentication(key)
                    )
                    #expect(pushed.errorCode == "invalid_client")
                    let description = try pushed.json()["error_description"] as? String
                    #expect(description?.contains(word) == true, "\(description ?? "no description")")
                    #expect(sandbox.server.counters.clientAssertionsRefused == 1)
                }
            }
        }
    }

    @Test("a JWKS configured under its https jwks_uri is used without a fetch")
    func configuredJWKSURI() async throws {
        let key = TestSigningKey(kid: "key-1")
        let jwksURI = "https://confidential.example/jwks.json"
        let configuration = SandboxConfiguration(
            autoApprove: true,
            clientMetadataDocuments: [
                ConfidentialDocuments.clientID: try ConfidentialDocuments.document(jwksURI: jwksURI),
                jwksURI: try ConfidentialDocuments.jwksDocument([key]),
            ]
        )
        try await withSandbox(configuration) { sandbox in
            let client = ConfidentialTestClient(sandbox)
            let tokens = try await client.signIn(key: key)
            let refreshed = try await client.refresh(tokens.refreshToken, key: key)
            #expect(refreshed.status == 200, "refresh failed: \(refreshed.text)")
        }
    }

    @Test("the confidential lifetimes are settings, each a whole number of seconds from 1 to 157788000")
    func lifetimeSettings() async throws {
        try await withSandbox { sandbox in
            let accepted = try await Self.postSettings(
                sandbox,
                #"{"confidentialSessionLifetime": 600, "confidentialRefreshTokenLifetime": 60}"#
            )
            #expect(accepted.status == 200)
            #expect(
                try accepted.json()["applied"] as? [String]
                    == ["confidentialRefreshTokenLifetime", "confidentialSessionLifetime"]
            )
            #expect(sandbox.server.configuration.confidentialSessionLifetime == 600)
            #expect(sandbox.server.configuration.confidentialRefreshTokenLifetime == 60)

            let refusals = [
                ("confidentialSessionLifetime", "0"), ("confidentialSessionLifetime", "157788001"),
                ("confidentialRefreshTokenLifetime", "1.5"), ("confidentialRefreshTokenLifetime", #""long""#),
            ]
            for (setting, value) in refusals {
                let refused = try await Self.postSettings(sandbox, "{\"\(setting)\": \(value)}")
                #expect(refused.status == 400)
                let json = try refused.json()
                #expect(json["setting"] as? String == setting)
                let message = "\(setting) must be a whole number of seconds from 1 to 157788000"
                #expect(json["message"] as? String == message)
            }
            #expect(sandbox.server.configuration.confidentialSessionLifetime == 600)
        }
    }

    static func postSettings(_ sandbox: SandboxHarness, _ body: String) async throws -> HTTPResponse {
        try await sandbox.transport.send(
            HTTPRequest(
                method: .post,
                url: sandbox.endpoints.authorizationServer.appending(path: "_sandbox/settings"),
                headers: ["Content-Type": "application/json"],
                body: Data(body.utf8)
            )
        )
    }
}
