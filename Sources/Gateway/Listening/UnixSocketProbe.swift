#if canImport(Glibc)
// With member import visibility, the compiler may attribute `stat` to CDispatch (whose headers include
// <sys/stat.h>) once Foundation is loaded by the module's dependencies; importing it keeps `stat` visible here.
import CDispatch
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells a Unix socket a running server listens on from one a dead process left behind, which may be replaced.
enum UnixSocketProbe {
    /// Whether something other than a socket is at `path` (a file, a directory, a link), which is never replaced.
    static func holdsOtherThanSocket(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFSOCK
    }

    /// Whether `path` is a socket that accepts a connection now.
    static func isAccepting(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return false }
        #if canImport(Glibc)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        #if canImport(Darwin)
        address.sun_len = UInt8(MemoryLayout<sockaddr_un>.size)
        #endif
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}
