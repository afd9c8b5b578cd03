import Foundation
import HTTPTransport
import OAuthSessionManager

/// The client the probe signs in as, and the finding about its metadata document.
struct ClientExamination: Sendable {
    var finding: Finding
    /// The client to probe with; `nil` when its document is unusable.
    var client: OAuthClient?
}

extension SignInDoctor {
    /// The redirect URI of the probe's loopback client; nothing listens there, as the request is abandoned.
    static let probeRedirectURI = URL(staticString: "http://127.0.0.1:8765/callback")

    /// Fetches and checks the `--client-id` document under the public-client rules, or describes the loopback
    /// development client (atproto.com/specs/oauth, Clients).
    func examineClient() async -> ClientExamination {
        guard let clientID = configuration.clientID else {
            let client = try? OAuthClient.loopback(redirectURI: Self.probeRedirectURI, scope: configuration.scope)
            return ClientExamination(
                finding: .skip(
                    "client-metadata",
                    "no --client-id: the probe uses the loopback development client, which has no document",
                    rule: Rule.clientMetadata
                ),
                client: client
            )
        }
        do {
            let document = try await fetcher.get(clientID, expecting: .metadata)
            let metadata = try ClientMetadata(
                json: document.body,
                expectedClientID: clientID.absoluteString,
                allowHTTPLoopback: allowHTTPLoopback
            )
            let redirect =
                metadata.redirectURIs.lazy.compactMap(URL.init(string:)).first ?? Self.probeRedirectURI
            let client = try OAuthClient.hosted(
                metadata,
                redirectURI: redirect,
                scope: configuration.scope,
                allowHTTPLoopback: allowHTTPLoopback
            )
            return ClientExamination(
                finding: .pass(
                    "client-metadata",
                    "\(clientID.absoluteString) is a valid public client document whose scope covers \(client.scope)",
                    rule: Rule.clientMetadata
                ),
                client: client
            )
        } catch {
            return ClientExamination(
                finding: .fail(
                    "client-metadata",
                    "\(clientID.absoluteString): \(Self.reason(of: error))",
                    rule: Rule.clientMetadata,
                    fix: "The app's developer must correct the client metadata document served at its client_id "
                        + "(200, JSON, no redirect), or ask for a scope within the document's.",
                    who: .app
                ),
                client: nil
            )
        }
    }
}
