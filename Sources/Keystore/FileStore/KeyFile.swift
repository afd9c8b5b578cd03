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
        sweepLeftovers(in: parent(of: path))
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
    /// The key is written to a temporary file beside `path` (created `0600`, so no other user can read it at any
    /// moment) and hard-linked into place, so no reader ever sees a partial key file; one left by a process killed in
    /// between is removed by the next read or creation.
    static func create(_ path: String) throws -> SecretKey {
        let directory = parent(of: path)
        try SecureDirectory.createMissing(directory)
        sweepLeftovers(in: directory)
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

    /// Removes the temporary key files (`.<32 hex digits>.key.tmp`) of this user in `directory` that are older than
    /// ``StoreMaintenance/staleAge`` seconds: left by a process killed while creating a key file, they hold a key.
    static func sweepLeftovers(in directory: String) {
        guard let names = try? SecureDirectory.contents(of: directory) else { return }
        for name in names where isTemporaryName(name) {
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, FileMode.isRegularFile(UInt32(info.st_mode)), info.st_uid == geteuid()
            else { continue }
            #if canImport(Darwin)
            let modified = Int(info.st_mtimespec.tv_sec)
            #else
            let modified = Int(info.st_mtim.tv_sec)
            #endif
            if Int(time(nil)) - modified >= StoreMaintenance.staleAge { unlink(path) }
        }
    }

    /// Whether `name` is that of a temporary key file: `.`, 32 lowercase hex digits, `.key.tmp`.
    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".key.tmp") else { return false }
        let digits = name.dropFirst().dropLast(".key.tmp".count)
        return digits.count == 32 && digits.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
#endif
