import Foundation
import HTTPTransport

/// The sandbox's test-control endpoints, on the authorization server's loopback origin only: read the counters and
/// change lifetimes and faults of the running server from another process (a test script, a CI job).
///
/// - `GET /_sandbox/counters`: what the server counted (grants, refreshes, replays, nonce challenges,
///   XRPC requests, rejections, app-password sessions created, refreshed and deleted, client assertions accepted and
///   refused, sessions ended by a key's removal from a client's JWKS, blobs served by `com.atproto.sync.getBlob`).
/// - `POST /_sandbox/client-cache/reset`: drops the client metadata documents and JWK Sets the sandbox fetched from
///   loopback addresses (``ClientDocumentCache``), so the next request fetches them again; answers `{"dropped": n}`.
/// - `POST /_sandbox/settings` with a JSON object of any of `accessTokenLifetime` (whole seconds, 1 to 86400),
///   `nonceRotationPeriod` (whole seconds, 1 to 86400), `refreshServerErrors` (how many refreshes to fail with 500,
///   0 to 100; 0 turns it off), `newNonceOnEveryResponse`, `slowResponses` (seconds, 0 to 60; 0 turns it off),
///   `autoApprove`, `confidentialSessionLifetime` and `confidentialRefreshTokenLifetime` (whole seconds, 1 to
///   157788000), `withheldPermissions` (an array of permission scope tokens the authorization server declines
///   to grant from then on, at sign-in and at refresh; `[]` grants everything again), and the faults
///   `issuerMismatch`, `noIssParameter`, `didDocumentNamesOtherHandle`, `prmNamesOtherServer`, `noDPoPNonces`
///   (booleans), `refusedScopes` (an array of permission scope tokens a PAR is refused for) and `clockSkew` (whole
///   seconds, -86400 to 86400; 0 turns it off); see ``SandboxFaults``. The ranges are those of
///   ``SandboxSettingRange``. A setting out of its range, not finite, not whole where a whole number is asked for,
///   of the wrong type, or a token that does not parse is refused with `400` and
///   `{"error": "InvalidRequest", "setting", "message"}` naming it and its range; nothing is applied then.
extension AuthorizationServerHandler {
    func control(_ request: SandboxRequest) -> SandboxResponse? {
        switch (request.method, request.path) {
        case (.get, "/_sandbox/counters"):
            return .json(200, Self.counters(core.monitor.snapshot))
        case (.post, "/_sandbox/client-cache/reset"):
            let dropped = core.clientDocuments.reset()
            core.monitor.note(request, "dropped \(dropped) cached client document(s)")
            return .json(200, ["dropped": dropped])
        case (.post, "/_sandbox/settings"):
            let change: SettingsChange
            do {
                change = try SettingsChange.read(request.body)
            } catch {
                core.monitor.rejected(request, .invalidRequest, "settings refused: \(error.message)")
                var body = ["error": "InvalidRequest", "message": error.message]
                body["setting"] = error.setting
                return .json(400, body)
            }
            let applied = core.updateConfiguration { configuration in change.apply(to: &configuration) }
            core.monitor.note(request, "settings changed: \(applied.joined(separator: ", "))")
            return .json(200, ["applied": applied])
        default:
            return nil
        }
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
            "legacySessionsDeleted": counters.legacySessionsDeleted,
            "clientAssertionsAccepted": counters.clientAssertionsAccepted,
            "clientAssertionsRefused": counters.clientAssertionsRefused,
            "sessionsEndedByKeyRemoval": counters.sessionsEndedByKeyRemoval,
            "blobsServed": counters.blobsServed,
            "blobsStored": counters.blobsStored,
        ]
    }
}
