#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens files that must be regular files, without following links or blocking on special files.
enum RegularFile {
    /// Opens the regular file at `path`, returning `nil` when it does not exist.
    ///
    /// The final component is never followed (`O_NOFOLLOW`), and the file is opened with `O_NONBLOCK` so that a
    /// FIFO does not block the open (POSIX.1-2017 `open`, "O_NONBLOCK"); only after `fstat` shows a regular file is
    /// `O_NONBLOCK` cleared. A link, FIFO, device or directory is refused with ``KeystoreError/notRegularFile``.
    static func open(_ path: String, flags: Int32, mode: mode_t = 0, role: String) throws -> Int32? {
        let descriptor = systemOpen(path, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, mode)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP { throw KeystoreError.symbolicLink(path, role: role) }
            throw KeystoreError.fileSystem("open", path: path, errno: code)
        }
        do {
            let fileMode = try FileMode.of(descriptor: descriptor, path: path)
            guard FileMode.isRegularFile(fileMode) else {
                throw KeystoreError.notRegularFile(path, role: role, kind: FileMode.kind(fileMode))
            }
            let status = fcntl(descriptor, F_GETFL)
            guard status >= 0, fcntl(descriptor, F_SETFL, status & ~O_NONBLOCK) == 0 else {
                throw KeystoreError.fileSystem("set blocking mode of", path: path, errno: errno)
            }
            return descriptor
        } catch {
            close(descriptor)
            throw error
        }
    }
}

/// Calls `open(2)`; a file-scope function, so that inside ``RegularFile/open(_:flags:mode:role:)`` the name still
/// reaches libc.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
