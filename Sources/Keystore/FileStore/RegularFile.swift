package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens files that must be regular files, without blocking on special files: the store's own files, and the files
/// a user names on the command line (a request body, a client metadata document, a client key).
package enum RegularFile {
    /// Why a path was not opened as a regular file.
    package enum Refusal: Error, Equatable {
        /// Nothing is at the path.
        case missing
        /// The final component is a symbolic link, and links were not to be followed.
        case symbolicLink
        /// A FIFO, a device, a socket or a directory; `kind` names it, such as "a FIFO".
        case notRegularFile(kind: String)
        /// A system call failed, such as `open` with `EACCES`.
        case system(operation: String, errno: Int32)

        /// The reason in a few words, such as "it is a FIFO, not a regular file" or "Permission denied".
        package var reason: String {
            switch self {
            case .missing: POSIXErrorText.describe(ENOENT)
            case .symbolicLink: "it is a symbolic link"
            case .notRegularFile(let kind): "it is \(kind), not a regular file"
            case .system(_, let code): POSIXErrorText.describe(code)
            }
        }
    }

    /// A regular file's bytes and mode, as ``read(_:limit:followingLinks:)`` found them.
    package struct Contents: Sendable {
        /// The bytes read: the whole file, or its first `limit` bytes when it is longer.
        package var data: Data
        /// The file's mode (type and permission bits) when it was opened.
        package var mode: UInt32
        /// Whether the file holds more than the limit; `data` then stops at the limit.
        package var exceedsLimit: Bool
    }

    /// Opens the regular file at `path`, returning `nil` when it does not exist.
    ///
    /// The final component is never followed (`O_NOFOLLOW`), and the file is opened with `O_NONBLOCK` so that a
    /// FIFO does not block the open (POSIX.1-2017 `open`, "O_NONBLOCK"); only after `fstat` shows a regular file is
    /// `O_NONBLOCK` cleared. A link, FIFO, device or directory is refused with ``KeystoreError/notRegularFile``.
    static func open(_ path: String, flags: Int32, mode: mode_t = 0, role: String) throws -> Int32? {
        do {
            return try Self.descriptor(path, flags: flags, mode: mode, followingLinks: false)
        } catch .missing {
            return nil
        } catch .symbolicLink {
            throw KeystoreError.symbolicLink(path, role: role)
        } catch .notRegularFile(let kind) {
            throw KeystoreError.notRegularFile(path, role: role, kind: kind)
        } catch .system(let operation, let code) {
            throw KeystoreError.fileSystem(operation, path: path, errno: code)
        }
    }

    /// Opens the regular file at `path` and returns its descriptor, in blocking mode; the caller closes it.
    ///
    /// The file is opened with `O_NONBLOCK`, so that a FIFO with no writer does not block the open, and `fstat`
    /// must then show a regular file; a FIFO, device, socket or directory is refused before anything is read from
    /// it. With `followingLinks` false the final component is not followed (`O_NOFOLLOW`): the store's own files.
    package static func descriptor(
        _ path: String,
        flags: Int32,
        mode: mode_t = 0,
        followingLinks: Bool
    ) throws(Refusal) -> Int32 {
        let noFollow = followingLinks ? 0 : O_NOFOLLOW
        let descriptor = systemOpen(path, flags | O_CLOEXEC | noFollow | O_NONBLOCK, mode)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { throw .missing }
            if code == ELOOP, !followingLinks { throw .symbolicLink }
            throw .system(operation: "open", errno: code)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw .system(operation: "inspect", errno: code)
        }
        let fileMode = UInt32(info.st_mode)
        guard FileMode.isRegularFile(fileMode) else {
            close(descriptor)
            throw .notRegularFile(kind: FileMode.kind(fileMode))
        }
        let status = fcntl(descriptor, F_GETFL)
        guard status >= 0, fcntl(descriptor, F_SETFL, status & ~O_NONBLOCK) == 0 else {
            let code = errno
            close(descriptor)
            throw .system(operation: "set blocking mode of", errno: code)
        }
        return descriptor
    }

    /// Reads the regular file at `path`: at most `limit` bytes, following links unless told not to.
    ///
    /// Nothing is read from a FIFO, device, socket or directory (``descriptor(_:flags:mode:followingLinks:)``).
    package static func read(_ path: String, limit: Int, followingLinks: Bool = true) throws(Refusal) -> Contents {
        let descriptor = try Self.descriptor(path, flags: O_RDONLY, followingLinks: followingLinks)
        defer { close(descriptor) }
        var info = stat()
        let mode = fstat(descriptor, &info) == 0 ? UInt32(info.st_mode) : 0
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while data.count <= limit {
            let wanted = min(chunk.count, limit + 1 - data.count)
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(operation: "read", errno: errno)
            }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
        }
        let exceeds = data.count > limit
        if exceeds { data.removeLast(data.count - limit) }
        return Contents(data: data, mode: mode, exceedsLimit: exceeds)
    }
}

/// Calls `open(2)`; a file-scope function, so that inside ``RegularFile/open(_:flags:mode:role:)`` the name still
/// reaches libc.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
