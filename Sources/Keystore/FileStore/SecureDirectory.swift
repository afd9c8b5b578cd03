#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates owner-only directories and repairs directories that are open to group or others.
enum SecureDirectory {
    /// Makes sure `path` is a directory with mode `0700`, creating it and any missing parents with that mode.
    ///
    /// A directory owned by another user is refused with ``KeystoreError/foreignOwner``. An existing directory
    /// with group or other permission bits is reset to `0700` and the old mode is logged
    /// as a warning.
    ///
    /// A symbolic link in its place is used only when the link and the directory it points to are the user's and
    /// the directory is not open to others: modes are never changed through a link.
    static func prepare(_ path: String, logger: Logger) throws {
        try createMissing(path)
        var link = stat()
        if lstat(path, &link) == 0, UInt32(link.st_mode) & 0o170_000 == 0o120_000 {
            try prepareLinked(path, owner: UInt32(link.st_uid))
            return
        }
        guard let mode = try FileMode.of(path) else {
            throw KeystoreError.fileSystem("create directory", path: path, errno: ENOENT)
        }
        guard FileMode.isDirectory(mode) else {
            throw KeystoreError.fileSystem("use as a directory", path: path, errno: ENOTDIR)
        }
        try requireOwnedByCurrentUser(path)
        if FileMode.isLoose(mode) {
            // Opened without following a link, so the mode changed is this directory's, whatever the path became.
            let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw KeystoreError.fileSystem("open", path: path, errno: errno)
            }
            defer { close(descriptor) }
            guard fchmod(descriptor, mode_t(FileMode.directory)) == 0 else {
                throw KeystoreError.fileSystem("set permissions of", path: path, errno: errno)
            }
            logger.warning(
                "Tightened permissions of \(path) from \(FileMode.octal(mode)) to \(FileMode.octal(FileMode.directory))",
                metadata: ["path": "\(path)", "oldMode": "\(FileMode.octal(mode))"]
            )
        }
    }

    /// Checks a store directory reached through a symbolic link: the link and its target are the user's, the target
    /// is a directory closed to others.
    private static func prepareLinked(_ path: String, owner: UInt32) throws {
        let user = UInt32(geteuid())
        guard owner == user || owner == 0 else {
            throw KeystoreError.foreignLink(path, owner: owner, user: user)
        }
        guard let mode = try FileMode.of(path), FileMode.isDirectory(mode) else {
            throw KeystoreError.fileSystem("use as a directory", path: path, errno: ENOTDIR)
        }
        try requireOwnedByCurrentUser(path)
        guard !FileMode.isLoose(mode) else {
            throw KeystoreError.looseLinkedDirectory(path, mode: mode)
        }
    }

    /// Throws ``KeystoreError/foreignOwner`` unless the directory at `path` belongs to the effective user, since
    /// its owner could replace or read every file in it whatever their modes.
    static func requireOwnedByCurrentUser(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw KeystoreError.fileSystem("inspect", path: path, errno: errno)
        }
        let user = geteuid()
        guard info.st_uid == user else {
            throw KeystoreError.foreignOwner(directory: path, owner: UInt32(info.st_uid), user: UInt32(user))
        }
    }

    /// Creates `path` and any missing parents with mode `0700`, leaving existing directories as they are.
    static func createMissing(_ path: String) throws {
        if try FileMode.of(path) != nil { return }
        if let parent = parent(of: path) {
            try createMissing(parent)
        }
        guard mkdir(path, mode_t(FileMode.directory)) == 0 else {
            let code = errno
            if code == EEXIST { return }
            throw KeystoreError.fileSystem("create directory", path: path, errno: code)
        }
        guard chmod(path, mode_t(FileMode.directory)) == 0 else {
            throw KeystoreError.fileSystem("set permissions of", path: path, errno: errno)
        }
    }

    /// Returns the directory containing `path`, or `nil` for a root or a single relative component.
    private static func parent(of path: String) -> String? {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return nil }
        let parent = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
        return parent == String(trimmed) ? nil : parent
    }

    /// Returns the names of the entries in the directory at `path`, excluding `.` and `..`.
    static func contents(of path: String) throws -> [String] {
        guard let stream = opendir(path) else {
            throw KeystoreError.fileSystem("list", path: path, errno: errno)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." {
                names.append(name)
            }
        }
        return names
    }
}
#endif
