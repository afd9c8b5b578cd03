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

    /// The path to bind: inside the private directory.
    var bindPath: String { directory + "/s" }

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
        return PrivateSocketPath(directory: made, path: path)
    }

    /// Makes the bound socket 0600 and renames it to ``path``, replacing what is there (a socket a dead process
    /// left), then removes the private directory.
    ///
    /// - Returns: `0` on success, else the `errno` of the step that failed (the socket is then removed).
    func publish() -> Int32 {
        guard chmod(bindPath, 0o600) == 0, rename(bindPath, path) == 0 else {
            let code = errno
            discard()
            return code
        }
        rmdir(directory)
        return 0
    }

    /// Removes the private directory and a socket still in it.
    func discard() {
        unlink(bindPath)
        rmdir(directory)
    }
}
