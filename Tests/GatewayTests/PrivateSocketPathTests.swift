import Foundation
import Testing

@testable import Gateway

/// The gateway's Unix socket is bound in a private 0700 directory and moved into place once 0600, so its path never
/// holds a socket other users can connect to.
@Suite("The Unix socket's private directory")
struct PrivateSocketPathTests {
    @Test("the bind path is in a new 0700 directory; published, the socket is 0600 at its path and the directory gone")
    func publish() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("gw-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let path = parent + "/gateway.sock"
        let socketPath = try #require(PrivateSocketPath.beside(path))
        #expect(socketPath.bindPath.hasPrefix(parent + "/."))
        var status = stat()
        #expect(lstat(socketPath.directory, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700, "the directory is the user's alone")

        let descriptor = try Self.bind(socketPath.bindPath)
        defer { close(descriptor) }
        #expect(lstat(path, &status) != 0, "nothing is at the socket's path before it is published")
        #expect(socketPath.publish() == 0)
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(lstat(socketPath.directory, &status) != 0, "the private directory is removed")
    }

    /// A Unix stream socket bound at `path`, as the server binds it (0777 less the umask).
    private static func bind(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0, "bind failed: \(errno)")
        return descriptor
    }
}
