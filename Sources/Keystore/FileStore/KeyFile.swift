#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and creates the 32-byte key file of a store.
///
/// A key file with group or other permission bits is refused, not repaired: like ssh with a private key, atoauth
/// cannot know whether someone already copied it, and only the user can decide that.
enum KeyFile {
    /// Returns the key in the file at `path`, or `nil` when the file does not exist.
    ///
    /// A symbolic link, FIFO or device at `path` is refused with ``KeystoreError/notRegularFile`` without reading
    /// from it, and at most 32 bytes are ever read.
    static func read(_ path: String) throws -> SecretKey? {
        guard let descriptor = try RegularFile.open(path, flags: O_RDONLY, role: "key file") else {
            return nil
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw KeystoreError.fileSystem("inspect", path: path, errno: errno)
        }
        let mode = UInt32(info.st_mode)
        guard !FileMode.isLoose(mode) else {
            throw KeystoreError.insecureKeyFile(path, mode: mode)
        }
        guard Int(info.st_size) == SecretKey.byteCount else {
            throw KeystoreError.invalidKeyFile(path, size: Int(info.st_size))
        }
        return try SecretKey { buffer in
            var offset = 0
            while offset < SecretKey.byteCount {
                let count = systemRead(descriptor, buffer + offset, SecretKey.byteCount - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    throw KeystoreError.invalidKeyFile(path, size: offset)
                }
                offset += count
            }
        }
    }

    /// Creates a key file at `path` holding a new random key, or returns the key of a file that appeared there
    /// meanwhile; never replaces an existing file.
    ///
    /// The key is written to a temporary file beside `path` and hard-linked into place, so no reader ever sees a
    /// partial key file.
    static func create(_ path: String) throws -> SecretKey {
        let directory = parent(of: path)
        try SecureDirectory.createMissing(directory)
        let key = try SecretKey.random()
        let temporary = directory + "/." + Sodium.hex(try Sodium.randomBytes(16)) + ".key.tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(FileMode.file))
        guard descriptor >= 0 else {
            throw KeystoreError.fileSystem("create", path: temporary, errno: errno)
        }
        defer { unlink(temporary) }
        do {
            defer { close(descriptor) }
            guard fchmod(descriptor, mode_t(FileMode.file)) == 0 else {
                throw KeystoreError.fileSystem("set permissions of", path: temporary, errno: errno)
            }
            try key.withUnsafeBytes {
                try SecureFile.writeAll(
                    UnsafeRawBufferPointer(start: $0, count: SecretKey.byteCount),
                    to: descriptor,
                    path: temporary
                )
            }
            try SecureFile.sync(descriptor, path: temporary)
        }
        guard link(temporary, path) == 0 else {
            let code = errno
            if code == EEXIST, let existing = try read(path) { return existing }
            throw KeystoreError.fileSystem("create key file", path: path, errno: code)
        }
        try SecureFile.syncDirectory(directory)
        return key
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
#endif
