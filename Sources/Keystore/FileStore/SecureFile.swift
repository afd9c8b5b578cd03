#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads, writes and removes files with owner-only permissions, using POSIX calls so no umask applies.
enum SecureFile {
    /// Returns the contents of the regular file at `path`, or `nil` when it does not exist.
    ///
    /// When `repairingWith` is given, a file readable or writable by group or others is reset to `0600`
    /// and the old mode is logged as a warning.
    static func read(_ path: String, repairingWith logger: Logger? = nil) throws -> Data? {
        guard let descriptor = try RegularFile.open(path, flags: O_RDONLY, role: "keystore file") else { return nil }
        defer { close(descriptor) }
        let mode = try FileMode.of(descriptor: descriptor, path: path)
        if let logger, FileMode.isLoose(mode) {
            try repair(descriptor: descriptor, path: path, mode: mode, to: FileMode.file, logger: logger)
        }
        return try readAll(descriptor, path: path, limit: maximumSize)
    }

    /// The largest file the store reads: far above any session, key or metadata file.
    static let maximumSize = 16 << 20

    /// The file's inode, size and modification time in nanoseconds, or ``EntryRevision/absent``.
    static func revision(of path: String) throws -> EntryRevision {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return .absent }
            throw KeystoreError.fileSystem("inspect", path: path, errno: errno)
        }
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return EntryRevision([Int64(info.st_ino), Int64(info.st_size), nanoseconds])
    }

    /// Replaces the file at `path` with `data`: a new `0600` file in `directory`, synced, renamed over
    /// `path`, then the directory synced.
    ///
    /// The temporary file is held under an advisory lock while it is written, so ``StoreLayout`` cleanup never
    /// removes a file that a live writer is still using.
    static func writeAtomically(_ data: Data, to path: String, temporaryPath: String, directory: String) throws {
        let descriptor = open(
            temporaryPath,
            O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
            mode_t(FileMode.file)
        )
        guard descriptor >= 0 else {
            throw KeystoreError.fileSystem("create", path: temporaryPath, errno: errno)
        }
        var renamed = false
        defer {
            close(descriptor)
            if !renamed { unlink(temporaryPath) }
        }
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        guard fchmod(descriptor, mode_t(FileMode.file)) == 0 else {
            throw KeystoreError.fileSystem("set permissions of", path: temporaryPath, errno: errno)
        }
        try writeAll(data, to: descriptor, path: temporaryPath)
        try sync(descriptor, path: temporaryPath)
        guard rename(temporaryPath, path) == 0 else {
            throw KeystoreError.fileSystem("replace", path: path, errno: errno)
        }
        renamed = true
        try syncDirectory(directory)
    }

    /// Removes the file at `path`, returning whether it existed.
    @discardableResult
    static func remove(_ path: String) throws -> Bool {
        guard unlink(path) == 0 else {
            let code = errno
            if code == ENOENT { return false }
            throw KeystoreError.fileSystem("remove", path: path, errno: code)
        }
        return true
    }

    /// Flushes the directory at `path` so that renames and removals in it survive a crash.
    static func syncDirectory(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard descriptor >= 0 else {
            throw KeystoreError.fileSystem("open", path: path, errno: errno)
        }
        defer { close(descriptor) }
        try sync(descriptor, path: path)
    }

    /// Resets the permissions of an open file to `newMode` and logs the old mode.
    static func repair(descriptor: Int32, path: String, mode: UInt32, to newMode: UInt32, logger: Logger) throws {
        guard fchmod(descriptor, mode_t(newMode)) == 0 else {
            throw KeystoreError.fileSystem("set permissions of", path: path, errno: errno)
        }
        logger.warning(
            "Tightened permissions of \(path) from \(FileMode.octal(mode)) to \(FileMode.octal(newMode))",
            metadata: ["path": "\(path)", "oldMode": "\(FileMode.octal(mode))"]
        )
    }

    /// Writes every byte of `data` to `descriptor`, retrying short and interrupted writes.
    static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { try writeAll($0, to: descriptor, path: path) }
    }

    /// Writes every byte of `buffer` to `descriptor`, retrying short and interrupted writes.
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw KeystoreError.fileSystem("write", path: path, errno: errno)
            }
            offset += written
        }
    }

    /// Reads `descriptor` to its end, refusing a file longer than `limit` bytes.
    static func readAll(_ descriptor: Int32, path: String, limit: Int) throws -> Data {
        var result = Data()
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw KeystoreError.fileSystem("read", path: path, errno: errno)
            }
            if count == 0 { return result }
            guard result.count + count <= limit else {
                throw KeystoreError.fileSystem("read more than \(limit) bytes of", path: path, errno: EFBIG)
            }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    /// Flushes `descriptor` to stable storage.
    static func sync(_ descriptor: Int32, path: String) throws {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(descriptor) == 0 else {
            throw KeystoreError.fileSystem("flush", path: path, errno: errno)
        }
    }
}
#endif
