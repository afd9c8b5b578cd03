import Foundation
import Hummingbird

/// The sandbox's test-control endpoints, on the authorization server's loopback origin only: read the counters and
/// change lifetimes and faults of the running server from another process (a test script, a CI job).
///
/// - `GET /_sandbox/counters`: what the server counted (grants, refreshes, replays, nonce challenges,
///   XRPC requests, rejections, app-password sessions created, refreshed and deleted, client assertions accepted and
///   refused, sessions ended by a key's removal from a client's JWKS, blobs served by `com.atproto.sync.getBlob`).
/// - `POST /_sandbox/client-cache/reset`: drops the client metadata documents and JWK Sets the sandbox fetched from
///   loopback addresses (``ClientDocumentCache``), so the next request fetches them again; answers `{"dropped": n}`.
/// - `GET /_sandbox/settings`: every setting of ``SandboxSetting/all`` by its key, with its current value.
/// - `POST /_sandbox/settings` with a JSON object of settings by key (or an old key, ``SandboxSetting/aliases``):
///   each checked as ``SandboxSettingsChange`` says, then all applied, or none; answers `{"applied": [keys]}`, or
///   `400` `{"error": "InvalidRequest", "setting", "message"}` naming the setting refused and its range.
extension AuthorizationServerHandler {
    /// Adds the test-control routes; they come before the injected delay, which they do not wait for.
    func addControlRoutes(to router: Router<SandboxContext>) {
        router.get("/_sandbox/counters") { _ in .json(200, Self.counters(core.monitor.snapshot)) }
        router.get("/_sandbox/settings") { _ in .json(200, SandboxSetting.values(of: core.configuration)) }
        router.post("/_sandbox/settings") { request in changeSettings(request) }
        router.post("/_sandbox/client-cache/reset") { request in
            let dropped = core.clientDocuments.reset()
            core.monitor.note(request, "dropped \(dropped) cached client document(s)")
            return .json(200, ["dropped": dropped])
        }
    }

    /// `POST /_sandbox/settings`: checks every setting sent, then applies them all, or none.
    private func changeSettings(_ request: SandboxRequest) -> SandboxResponse {
        let change: SandboxSettingsChange
        do {
            change = try SandboxSettingsChange(json: request.body)
        } catch {
            core.monitor.rejected(request, .invalidRequest, "settings refused: \(error.message)")
            var body = ["error": "InvalidRequest", "message": error.message]
            body["setting"] = error.setting
            return .json(400, body)
        }
        let applied = core.updateConfiguration { change.apply(to: &$0) }
        core.monitor.note(request, "settings changed: \(applied.joined(separator: ", "))")
        return .json(200, ["applied": applied])
    }

    private static func counters(_ counters: SandboxCounters) -> [String: Any] {
        [
            "authorizationCodeGrantsSucceeded": counters.authorizationCodeGrantsSucceeded,
            "refreshGrantsSucceeded": counters.refreshGrantsSucceeded,
            "refreshTokenReplays": counters.refreshTokenReplays,
            "nonceChallengesSent": counters.nonceChallengesSent,
            "injectedRefreshFailures": counters.injectedRefreshFailures,
            "revocations": counters.revocations,
            "xrpcRequestsReceived": counters.xrpcRequestsReceived,
            "xrpcRequestHeadsReceived": counters.xrpcRequestHeadsReceived,
            "totalRejections": counters.totalRejections,
            "legacySessionsCreated": counters.legacySessionsCreated,
            "legacyRefreshesSucceeded": counters.legacyRefreshesSucceeded,
            "legacyRefreshTokenReuses": counters.legacyRefreshTokenReuses,
            "legacySessionsDeleted": counters.legacySessionsDeleted,
            "clientAssertionsAccepted": counters.clientAssertionsAccepted,
            "clientAssertionsRefused": counters.clientAssertionsRefused,
            "sessionsEndedByKeyRemoval": counters.sessionsEndedByKeyRemoval,
            "blobsServed": counters.blobsServed,
            "blobsStored": counters.blobsStored,
        ]
    }
}
