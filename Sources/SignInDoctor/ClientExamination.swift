import ATProtoPermissions
import Foundation
import HTTPTransport
import OAuthMetadata
import OAuthSessionManager

/// The client the probe signs in as, and the finding about its metadata document.
struct ClientExamination: Sendable {
    var finding: Finding
    /// The client to probe with; `nil` when its document is unusable.
    var client: OAuthClient?
    /// Whether the document is a confidential client's, whose assertions a clock difference refuses sooner than
    /// proofs.
    var isConfidential = false
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
        let document: Data
        do {
            document = try await fetcher.get(clientID, expecting: .metadata).body
        } catch {
            return ClientExamination(
                finding: .fail(
                    "client-metadata",
                    Self.reason(of: error),
                    rule: Rule.clientMetadata,
                    fix: "The app's client metadata document must be served at its client_id (200, JSON, no "
                        + "redirect); its developer must fix that.",
                    who: .app
                ),
                client: nil
            )
        }
        var problems = ClientMetadataCheck.problems(
            in: document,
            fetchedFrom: clientID.absoluteString,
            allowHTTPLoopback: allowHTTPLoopback
        )
        problems += await ClientMetadataCheck.keySetProblems(ofDocument: document, besides: problems, fetcher: fetcher)
        guard problems.isEmpty else {
            let shown = problems.prefix(5).map { "\($0.field): \($0.problem) [\($0.rule)]" }
            let more = problems.count > 5 ? "; and \(problems.count - 5) more" : ""
            return ClientExamination(
                finding: .fail(
                    "client-metadata",
                    "\(clientID.absoluteString): " + shown.joined(separator: "; ") + more,
                    rule: Rule.clientMetadata,
                    fix: "The app's developer must correct the client metadata document (atoauth client check "
                        + "\(clientID.absoluteString) lists every problem).",
                    who: .app
                ),
                client: nil
            )
        }
        do {
            let metadata = try ClientMetadata(
                json: document,
                expectedClientID: clientID.absoluteString,
                allowHTTPLoopback: allowHTTPLoopback
            )
            guard !metadata.isConfidential else {
                // Its requests need its private key, which the doctor does not hold: the probe runs as the loopback
                // client, so the server's side is still examined.
                let scope = try OAuthClient.requestedScope(configuration.scope, in: metadata)
                let client = try? OAuthClient.loopback(redirectURI: Self.probeRedirectURI, scope: configuration.scope)
                return ClientExamination(
                    finding: .pass(
                        "client-metadata",
                        "\(clientID.absoluteString) is a valid confidential client document (private_key_jwt) whose "
                            + "scope covers \(scope); the probe runs as the loopback client, since it does not hold "
                            + "the client's key",
                        rule: Rule.clientMetadata
                    ),
                    client: client,
                    isConfidential: true
                )
            }
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
                    fix: (error as? MetadataError)?.field == "scope" || error is PermissionError
                        ? "Ask for a scope within the document's, or have the app's developer widen its scope."
                        : "atoauth signs in as a native app (public) or a confidential client (private_key_jwt); the "
                            + "app's developer must change the document to be one.",
                    who: .app
                ),
                client: nil
            )
        }
    }
}
