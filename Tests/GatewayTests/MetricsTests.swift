import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import DPoPRequestExecutor
import Foundation
import Gateway
import HTTPTransport
import Keystore
import OAuthSessionManager
import Sandbox
import Testing

@Suite("Prometheus metrics at /_gateway/metrics")
struct MetricsTests {
    @Test("requests are counted by method and status, refusals by reason, with a latency histogram and no DID")
    func counted() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let alice = try await world.signIn(with: accounts)
            try await RunningGateway.with(accounts, transport: world.transport) { gateway in
                #expect(try await gateway.send("/xrpc/com.atproto.server.getSession").status == 200)
                #expect(try await gateway.send("/xrpc/com.atproto.server.getSession", authorized: false).status == 401)
                let metrics = try await gateway.send("/_gateway/metrics")
                #expect(metrics.status == 200)
                #expect(metrics.headers["Content-Type"]?.hasPrefix("text/plain") == true)
                let text = String(decoding: metrics.body, as: UTF8.self)
                #expect(text.contains(#"atoauth_gateway_requests_total{method="GET",status="200"} 1"#))
                #expect(text.contains(#"atoauth_gateway_requests_total{method="GET",status="401"} 1"#))
                #expect(text.contains(#"atoauth_gateway_refusals_total{reason="AuthRequired"} 1"#))
                #expect(text.contains("atoauth_gateway_request_duration_seconds_bucket"))
                #expect(text.contains("atoauth_gateway_in_flight"))
                #expect(!text.contains(alice.did.rawValue))
            }
        }
    }

    @Test("with metricsPerAccount, the DID a request went out as is a label")
    func perAccount() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let alice = try await world.signIn(with: accounts)
            try await RunningGateway.with(
                accounts,
                transport: world.transport,
                configure: { $0.metricsPerAccount = true }
            ) {
                gateway in
                #expect(try await gateway.send("/xrpc/com.atproto.server.getSession").status == 200)
                let text = String(decoding: try await gateway.send("/_gateway/metrics").body, as: UTF8.self)
                #expect(text.contains(#"method="GET",status="200",account="\#(alice.did.rawValue)""#))
            }
        }
    }

    @Test("a refresh and a nonce challenge answered with a retry are counted")
    func refreshesAndNonceRetries() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            // An access token the PDS does not know, with a good refresh token: the call refreshes once.
            _ = try await world.signInWithRefusedAccessToken(activeIn: accounts)
            try await RunningGateway.with(accounts, transport: world.transport) { gateway in
                accounts.nonceCache.removeAll()
                #expect(try await gateway.send("/xrpc/com.atproto.server.getSession").status == 200)
                let text = String(decoding: try await gateway.send("/_gateway/metrics").body, as: UTF8.self)
                #expect(text.contains("atoauth_gateway_refreshes_total 1"), "\(text)")
                #expect(world.server.counters.refreshGrantsSucceeded == 1)
                let retries = text.split(separator: "\n").first { $0.hasPrefix("atoauth_gateway_nonce_retries_total ") }
                #expect(Int(retries?.split(separator: " ").last ?? "") ?? 0 >= 1, "\(text)")
            }
        }
    }
}
