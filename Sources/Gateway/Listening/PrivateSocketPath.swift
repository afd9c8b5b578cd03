import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the gateway binds its Unix socket: a new directory of mode 0700 beside the socket's path.
///
/// No other user can connect to the socket there between `bind` (which makes it 0777 less the umask) and `chmod`;
/// made 0600, it is renamed into place and the directory removed. At its own path it is never anything but 0600.
struct PrivateSocketPath: Sendable {
    /// The private directory, 0700.
    let directory: String
    /// The path the socket is published at.
    let path: String
    /// The private directory, open, on Linux: a socket path too long to bind inside the directory by name is bound
    /// through `/proc/self/fd/<descriptor>/s`, which names the same directory in a few bytes.
    private let opened: OpenDirectory?

    /// The socket in the private directory, by its full path.
    var socketPath: String { directory + "/s" }

    /// The path to bind: the socket in the private directory, by a name short enough for `sun_path`.
    var bindPath: String {
        if socketPath.utf8.count <= GatewayConfiguration.Listen.maximumSocketPathBytes { return socketPath }
        return opened.map { "/proc/self/fd/\($0.descriptor)/s" } ?? socketPath
    }

    /// Whether ``bindPath`` fits in `sun_path`.
    var canBind: Bool { bindPath.utf8.count <= GatewayConfiguration.Listen.maximumSocketPathBytes }

    /// Makes the private directory beside `path` (in the same directory, so the rename stays on one file system).
    ///
    /// - Returns: `nil` with `errno` set when the directory cannot be made.
    static func beside(_ path: String) -> PrivateSocketPath? {
        let slash = path.lastIndex(of: "/")
        let parent = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        var template = ((parent == "/" ? "/" : parent + "/") + ".gXXXXXX").utf8CString
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
        guard let made else { return nil }
        var opened: OpenDirectory?
        #if os(Linux)
        if made.utf8.count + 2 > GatewayConfiguration.Listen.maximumSocketPathBytes {
            let descriptor = open(made, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
            opened = descriptor >= 0 ? OpenDirectory(descriptor: descriptor) : nil
        }
        #endif
        return PrivateSocketPath(directory: made, path: path, opened: opened)
    }

    /// Makes the bound socket 0600 and renames it to ``path``, replacing what is there (a socket a dead process
    /// left), then removes the private directory.
    ///
    /// - Returns: `0` on success, else the `errno` of the step that failed (the socket is then removed).
    func publish() -> Int32 {
        guard chmod(socketPath, 0o600) == 0, rename(socketPath, path) == 0 else {
            let code = errno
            discard()
            return code
        }
        rmdir(directory)
        closeDirectory()
        return 0
    }

    /// Removes the private directory and a socket still in it.
    func discard() {
        unlink(socketPath)
        rmdir(directory)
        closeDirectory()
    }

    private func closeDirectory() {
        opened?.closeOnce()
    }
}

/// The private directory, open, closed once however often ``PrivateSocketPath/discard()`` runs: a descriptor
/// closed twice could be another's by then.
private final class OpenDirectory: Sendable {
    let descriptor: Int32
    private let closed = Atomic(false)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func closeOnce() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        close(descriptor)
    }
}
