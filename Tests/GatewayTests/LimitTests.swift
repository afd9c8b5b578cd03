import ATOAuthTesting
import Foundation
import Gateway
import HTTPTransport
import Sandbox
import Testing

@Suite("Bounded: requests in flight, and clients that stall")
struct LimitTests {
    @Test("one request over --max-concurrent is 503 Overloaded with Retry-After, and nothing is sent for it")
    func overloaded() async throws {
        try await RunningGateway.withSignedIn(
            configure: { $0.maximumConcurrentRequests = 1 },
            body: { world, gateway in
                world.server.updateConfiguration { $0.faults.slowResponses = 8 }
                let received = world.server.counters.xrpcRequestsReceived
                let slow = Task { try await gateway.send("/xrpc/com.atproto.server.getSession") }
                // The first request holds the only slot for eight seconds once it reaches the PDS: ample for the
                // second to arrive meanwhile, even on a loaded machine.
                try await Waiting.until("the first request to reach the PDS") {
                    world.server.counters.xrpcRequestsReceived > received
                }
                let refused = try await gateway.send("/xrpc/com.atproto.server.getSession")
                #expect(refused.status == 503)
                #expect(try GatewayClient.errorName(refused) == "Overloaded")
                #expect(refused.headers["Retry-After"] == "1")
                #expect(world.server.counters.xrpcRequestsReceived == received + 1)
                #expect(try await slow.value.status == 200)
                world.server.updateConfiguration { $0.faults.slowResponses = nil }
                #expect(try await gateway.send("/xrpc/com.atproto.server.getSession").status == 200)
            }
        )
    }

    @Test(
        "a client that stops sending its body is cut off after the idle timeout; the PDS stores nothing of it",
        arguments: [1000, 2 << 20]  // read whole first; sent on as it arrives
    )
    func stalledBody(declaredLength: Int) async throws {
        try await RunningGateway.withSignedIn(
            configure: { $0.idleTimeout = .seconds(1) },
            body: { world, gateway in
                let before = world.server.counters
                let connection = try RawHTTPConnection(port: gateway.port)
                connection.sendRaw(
                    "POST /xrpc/com.atproto.repo.uploadBlob HTTP/1.1\r\nHost: 127.0.0.1:\(gateway.port)\r\n"
                        + "Authorization: Bearer \(gateway.token)\r\nContent-Type: application/octet-stream\r\n"
                        + "Content-Length: \(declaredLength)\r\n\r\n" + String(repeating: "x", count: 100)
                )
                // Closed by the gateway's idle timeout (1 s), not left open until RawHTTPConnection's 10 s read limit.
                #expect(await connection.readUntilClosed().closedByServer, "the gateway kept the stalled upload open")
                #expect(world.server.counters.blobsStored == before.blobsStored)
                if declaredLength <= GatewayConfiguration.memoryBodyLimit {
                    #expect(world.server.counters.xrpcRequestsReceived == before.xrpcRequestsReceived)
                }
                #expect(try await gateway.send("/xrpc/com.atproto.server.getSession").status == 200)
            }
        )
    }
}
