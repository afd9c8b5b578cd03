import ATOAuthTesting
import Foundation
import Testing

@testable import Gateway

/// The gateway's Unix socket never exists at its path with permissions wider than 0600, not even between `bind` and
/// `chmod`: the directory it appears in sees it arrive by a rename, never made there.
@Suite("The Unix socket is never 0777, even briefly")
struct SocketPermissionTests {
    @Test(
        "the socket arrives at its path by rename, 0600, never created there; also at a path near the length limit",
        arguments: [false, true]
    )
    func arrivesByRename(nearLimit: Bool) async throws {
        let base = "/tmp/gw-\(UInt32.random(in: 0...UInt32.max))"
        // Near the limit, the private directory's path beside the socket is too long for `sun_path`.
        let parent = nearLimit ? base + "/" + String(repeating: "d", count: 95 - base.utf8.count) : base
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let name = nearLimit ? "g.sock" : "gateway.sock"
        let path = parent + "/" + name
        #expect(path.utf8.count <= GatewayConfiguration.Listen.maximumSocketPathBytes)

        let watch = try DirectoryEvents(parent)
        try await Self.withGateway(onSocket: path) { (gateway: GatewayServer) async throws in
            let task = Task { try await gateway.run() }
            defer { task.cancel() }
            #expect(try await gateway.boundAddress() == .unixSocket(path: path))
            var status = stat()
            #expect(lstat(path, &status) == 0)
            #expect(status.st_mode & S_IFMT == S_IFSOCK)
            #expect(status.st_mode & 0o777 == 0o600)
            task.cancel()
            _ = try? await task.value
        }
        let events = watch.read().filter { $0.name == name }
        #expect(events.contains { $0.mask & UInt32(IN_MOVED_TO) != 0 }, "\(events)")
        #expect(!events.contains { $0.mask & UInt32(IN_CREATE) != 0 }, "the socket was made at its path: \(events)")
    }

    @Test("a file at the socket path is left alone: the gateway refuses to start, and the file keeps its bytes")
    func fileAtSocketPath() async throws {
        let base = "/tmp/gw-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let path = base + "/notes.txt"
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: path))
        try await Self.withGateway(onSocket: path) { (gateway: GatewayServer) async throws in
            let error = await #expect(throws: GatewayError.self) { try await gateway.run() }
            #expect(error?.code == .cannotListen)
            #expect(
                error?.description.contains("something other than a socket") == true,
                "\(String(describing: error))"
            )
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("my notes".utf8))
    }

    /// A gateway, not yet running, configured to listen on a socket at `path`, over a sandbox.
    private static func withGateway(onSocket path: String, _ body: (GatewayServer) async throws -> Void) async throws {
        try await SandboxWorld.with { world in
            let spool = RunningGateway.spoolDirectory()
            defer { try? FileManager.default.removeItem(at: spool) }
            var configuration = RunningGateway.configuration(spool: spool)
            configuration.listen = .unixSocket(path: path)
            try await body(try GatewayServer(configuration: configuration, accounts: world.accounts()))
        }
    }
}

/// The `inotify(7)` events of one directory since it was watched: each name made or moved into it.
private final class DirectoryEvents {
    struct Event: CustomStringConvertible {
        var mask: UInt32
        var name: String
        var description: String { "\(name) (mask \(String(mask, radix: 16)))" }
    }

    private let descriptor: Int32

    init(_ directory: String) throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        try #require(descriptor >= 0)
        let watched = inotify_add_watch(descriptor, directory, UInt32(IN_CREATE | IN_MOVED_TO))
        try #require(watched >= 0, "inotify_add_watch failed: \(errno)")
    }

    deinit {
        close(descriptor)
    }

    /// Every event queued so far.
    func read() -> [Event] {
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return events }
            var offset = 0
            // struct inotify_event: int wd; uint32_t mask, cookie, len; char name[len].
            while offset + 16 <= count {
                let field = { (at: Int) in
                    buffer[offset + at..<offset + at + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                }
                let mask = field(4)
                let length = Int(field(12))
                let nameBytes = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
                events.append(Event(mask: mask, name: String(decoding: nameBytes, as: UTF8.self)))
                offset += 16 + length
            }
        }
    }
}
