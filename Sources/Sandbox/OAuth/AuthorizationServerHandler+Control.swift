import Foundation
import HTTPTransport
import Hummingbird
import WireFormat

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
    ///
    /// They answer programs on this machine only (``refusalOfForeignControl(_:)``).
    func addControlRoutes(to router: Router<SandboxContext>) {
        let control = router.group("/_sandbox")
            .add(middleware: RejectionMiddleware(monitor: core.monitor))
            .add(middleware: CheckMiddleware { context in try Self.refusalOfForeignControl(context.request) })
        control.get("counters") { _ in .json(200, Self.counters(core.monitor.snapshot)) }
        control.get("settings") { _ in .json(200, SandboxSetting.values(of: core.configuration)) }
        control.post("settings") { request in changeSettings(request) }
        control.post("client-cache/reset") { request in
            let dropped = core.clientDocuments.reset()
            core.monitor.note(request, "dropped \(dropped) cached client document(s)")
            return .json(200, ["dropped": dropped])
        }
    }

    /// Refuses, with 403, a control request a web page sent (it carries `Origin`, RFC 6454 §7, or `Sec-Fetch-Site`,
    /// W3C Fetch Metadata), other than a `GET` typed in the address bar, or whose `Host` is not the sandbox's loopback
    /// address (a page whose DNS name was rebound to 127.0.0.1).
    ///
    /// Without it, any page open in the developer's browser could change the faults: a form post is a simple
    /// cross-origin request, sent without a CORS preflight, and the settings are read from its body whatever its
    /// content type.
    static func refusalOfForeignControl(_ request: SandboxRequest) throws(SandboxRejection) {
        // A page the developer opens from the address bar (`Sec-Fetch-Site: none`, no `Origin`) reads the counters
        // and settings; no page can send that value.
        let origin = request.header("origin")
        let site = request.header("sec-fetch-site")
        let typed = request.method == .get && origin == nil && site == "none"
        let fromBrowser = !typed && (origin != nil || site != nil)
        let ownHost = LoopbackAuthority.names(request.authority, port: request.url.port ?? 0)
        guard fromBrowser || !ownHost else { return }
        let message =
            fromBrowser
            ? "The sandbox's control endpoints answer programs on this machine, not web pages."
            : "The Host header must name the sandbox's own address (127.0.0.1, localhost or [::1] with its port)."
        let seen =
            fromBrowser
            ? "sent by a web browser" : "for Host “\(TerminalText.sanitized(request.authority ?? "", limit: 80))”"
        throw SandboxRejection(
            reason: .controlNotLocal,
            explanation: "control request refused: \(seen)",
            answer: .json(403, ["error": "Forbidden", "message": message])
        )
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
            "legacySessionsDeletedWithUsedJWT": counters.legacySessionsDeletedWithUsedJWT,
            "clientAssertionsAccepted": counters.clientAssertionsAccepted,
            "clientAssertionsRefused": counters.clientAssertionsRefused,
            "sessionsEndedByKeyRemoval": counters.sessionsEndedByKeyRemoval,
            "blobsServed": counters.blobsServed,
            "blobsStored": counters.blobsStored,
        ]
    }
}
