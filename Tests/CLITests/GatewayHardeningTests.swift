import ATOAuthTesting
import Foundation
import Testing

/// A caller without a token cannot take `atoauth gateway` down, and a PDS cannot make it pass on what is no HTTP
/// answer (issue #34 item 5).
@Suite("atoauth gateway out of descriptors, and a PDS's impossible status")
struct GatewayHardeningTests {
    static let getSession = "/xrpc/com.atproto.server.getSession"

    @Test("more connections than it may open files: the gateway keeps descriptors, does not spin, and serves again")
    func outOfDescriptors() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let limit = 128
            // With 128 files it keeps 64 for the rest of the process and takes (128 − 64) / 3 = 21 connections.
            let connections = 21
            let gateway = try await GatewayProcess(in: world, openFiles: limit)
            let pid = gateway.process.processIdentifier
            let port = try #require(gateway.port)
            let token = try gateway.token()
            #expect(CurlAnswer(try await gateway.curl(Self.getSession, token: token)).status == 200)
            let idle = try Self.openDescriptors(pid)

            // Past the limit: the gateway keeps its connections, and closes every one beyond them once accepted, so
            // it never takes its last descriptor (the runtime, libdispatch's thread pool among it, needs some).
            var held = try (0..<(limit + 64)).map { _ in try RawHTTPConnection(port: port) }
            try await Waiting.until("the gateway to hold the connections it may: \(gateway.errors)") {
                try Self.openDescriptors(pid) >= idle + connections
            }
            let cpuBefore = try Self.cpuTicks(pid)
            let clockBefore = Self.clockTicks()
            let window = 300
            // The window to measure in, counted in clock ticks: long enough that an accept loop spinning on EMFILE
            // would use most of them.
            try await Waiting.until("\(window) clock ticks with the sockets held") {
                Self.clockTicks() - clockBefore >= window
            }
            let used = try Self.cpuTicks(pid) - cpuBefore
            let elapsed = Self.clockTicks() - clockBefore
            #expect(used * 10 <= elapsed, "the gateway used \(used) of \(elapsed) clock ticks while out of descriptors")
            #expect(try Self.openDescriptors(pid) < limit - 32, "the gateway kept descriptors for the rest of it")

            held.removeAll()  // closes them
            try await Waiting.until("a call to succeed once the sockets closed: \(gateway.errors)") {
                CurlAnswer(try await gateway.curl(Self.getSession, ["-m", "5"], token: token)).status == 200
            }
            #expect(await gateway.stop() == 0)
        }
    }

    @Test("a PDS status outside 200–599, or 101, is 502 UpstreamInvalid", arguments: [101, 600, 999])
    func impossibleStatus(status: Int) async throws {
        let answer = ScriptedResponse.json(#"{"did":"did:plc:whatever"}"#, status: status)
        try await CLIWorld.withScriptedPDS(LoopbackHTTPServer.always(answer)) { world, _ in
            let gateway = try await GatewayProcess(in: world)
            let call = CurlAnswer(try await gateway.curl(Self.getSession, ["-m", "30"], token: try gateway.token()))
            #expect(call.status == 502, "\(call.body)")
            #expect(call.error == "UpstreamInvalid", "\(call.body)")
            #expect(await gateway.stop() == 0)
        }
    }

    /// The descriptors process `pid` has open.
    static func openDescriptors(_ pid: Int32) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    }

    /// The CPU time process `pid` has used, user and system, in clock ticks (`/proc/<pid>/stat`, fields 14 and 15).
    static func cpuTicks(_ pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name, in parentheses, may hold spaces: the fields counted from after it start at field 3.
        let fields = try #require(stat.split(separator: ")").last).split(separator: " ")
        return try #require(Int(fields[11])) + #require(Int(fields[12]))
    }

    /// Clock ticks since an arbitrary moment (`times(2)`), in the unit of ``cpuTicks(_:)``.
    static func clockTicks() -> Int {
        var buffer = tms()
        return Int(times(&buffer))
    }
}
