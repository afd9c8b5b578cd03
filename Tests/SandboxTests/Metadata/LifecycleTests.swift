import Failures
import Foundation
import HTTPTransport
import Logging
import Sandbox
import Testing

@Suite("Starting and stopping")
struct LifecycleTests {
    @Test("starting twice gives the same endpoints, and after stop nothing answers")
    func startTwiceThenStop() async throws {
        let server = SandboxServer(logger: Logger(label: "quiet") { _ in SwiftLogNoOpLogHandler() })
        async let first = server.start()
        async let second = server.start()
        let (a, b) = try await (first, second)
        #expect(a == b)
        #expect(await server.endpoints == a)
        await server.stop()
        #expect(await server.endpoints == nil)
        let quick = AsyncHTTPClientTransport.Configuration(connectTimeout: .seconds(1), totalTimeout: .seconds(1))
        _ = try await AsyncHTTPClientTransport.withTransport(configuration: quick) { transport in
            await #expect(throws: (any Error).self) {
                _ = try await transport.send(HTTPRequest(url: a.authorizationServer))
            }
        }
    }

    @Test("run serves until its task is cancelled")
    func runUntilCancelled() async throws {
        let server = SandboxServer(logger: Logger(label: "quiet") { _ in SwiftLogNoOpLogHandler() })
        let (stream, continuation) = AsyncStream.makeStream(of: SandboxEndpoints.self)
        let task = Task { try await server.run { continuation.yield($0) } }
        var iterator = stream.makeAsyncIterator()
        let endpoints = try #require(await iterator.next())
        #expect(endpoints.pds.host == "127.0.0.1")
        task.cancel()
        try await task.value
        #expect(await server.endpoints == nil)
    }
}

@Suite("A port another program holds")
struct BusyPortTests {
    @Test("a sandbox asked for a taken port names it, with another port as the remedy")
    func portInUse() async throws {
        let quiet = Logger(label: "quiet") { _ in SwiftLogNoOpLogHandler() }
        let first = SandboxServer(logger: quiet)
        let taken = try #require(try await first.start().pds.port)
        let second = SandboxServer(
            configuration: SandboxConfiguration(ports: SandboxConfiguration.Ports(pds: taken)),
            logger: quiet
        )
        let error = await #expect(throws: SandboxError.self) { _ = try await second.start() }
        await second.stop()
        await first.stop()
        #expect(error == .portInUse(taken))
        #expect(error?.description.contains("port \(taken) on 127.0.0.1 is already in use") == true)
        #expect(error?.remedy == .chooseAnotherPort(taken))
    }
}
