import Foundation
import HTTPTransport

/// The sandbox's test-control endpoints, on the authorization server's loopback origin only: read the counters and
/// change lifetimes and faults of the running server from another process (a test script, a CI job).
///
/// - `GET /_sandbox/counters`: what the server counted (grants, refreshes, replays, nonce challenges,
///   XRPC requests, rejections, app-password sessions created, refreshed and deleted).
/// - `POST /_sandbox/settings` with a JSON object of any of `accessTokenLifetime` (seconds), `nonceRotationPeriod`
///   (seconds), `refreshServerErrors` (how many refreshes to fail with 500; 0 turns it off),
///   `newNonceOnEveryResponse`, `slowResponses` (seconds; 0 turns it off), `autoApprove`, and
///   `withheldPermissions` (an array of permission scope tokens the authorization server declines to grant from
///   then on, at sign-in and at refresh; `[]` grants everything again; applied only when every token parses).
extension AuthorizationServerHandler {
    func control(_ request: SandboxRequest) -> SandboxResponse? {
        switch (request.method, request.path) {
        case (.get, "/_sandbox/counters"):
            return .json(200, Self.counters(core.monitor.snapshot))
        case (.post, "/_sandbox/settings"):
            guard let object = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any] else {
                core.monitor.rejected(request, .invalidRequest, "the settings are not a JSON object")
                return .json(400, ["error": "InvalidRequest", "message": "send a JSON object of settings"])
            }
            let applied = core.updateConfiguration { configuration in Self.apply(object, to: &configuration) }
            core.monitor.note(request, "settings changed: \(applied.sorted().joined(separator: ", "))")
            return .json(200, ["applied": applied.sorted()])
        default:
            return nil
        }
    }

    private static func apply(_ object: [String: Any], to configuration: inout SandboxConfiguration) -> [String] {
        var applied: [String] = []
        if let seconds = (object["accessTokenLifetime"] as? NSNumber)?.doubleValue, seconds > 0 {
            configuration.accessTokenLifetime = seconds
            applied.append("accessTokenLifetime")
        }
        if let seconds = (object["nonceRotationPeriod"] as? NSNumber)?.doubleValue, seconds > 0 {
            configuration.nonceRotationPeriod = seconds
            applied.append("nonceRotationPeriod")
        }
        if let count = (object["refreshServerErrors"] as? NSNumber)?.intValue {
            configuration.faults.refreshServerError = count > 0 ? .times(count) : .off
            applied.append("refreshServerErrors")
        }
        if let flag = object["newNonceOnEveryResponse"] as? Bool {
            configuration.faults.newNonceOnEveryResponse = flag
            applied.append("newNonceOnEveryResponse")
        }
        if let seconds = (object["slowResponses"] as? NSNumber)?.doubleValue {
            configuration.faults.slowResponses = seconds > 0 ? seconds : nil
            applied.append("slowResponses")
        }
        if let flag = object["autoApprove"] as? Bool {
            configuration.autoApprove = flag
            applied.append("autoApprove")
        }
        if let tokens = object["withheldPermissions"] as? [String],
            tokens.allSatisfy({ SandboxConfiguration.permissionProblem($0) == nil })
        {
            configuration.withheldPermissions = tokens
            applied.append("withheldPermissions")
        }
        return applied
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
            "totalRejections": counters.totalRejections,
            "legacySessionsCreated": counters.legacySessionsCreated,
            "legacyRefreshesSucceeded": counters.legacyRefreshesSucceeded,
            "legacySessionsDeleted": counters.legacySessionsDeleted,
        ]
    }
}
