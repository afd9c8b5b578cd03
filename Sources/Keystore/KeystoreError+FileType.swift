/// Messages for store paths that are not what the store expects: links, special files, other users' directories.
extension KeystoreError {
    /// A file that the store opened with `O_NOFOLLOW` is a symbolic link (POSIX.1-2017 `open`, `[ELOOP]`).
    static func symbolicLink(_ path: String, role: String) -> KeystoreError {
        make(
            .notRegularFile,
            path: path,
            "The \(role) \(path) is a symbolic link; atoauth does not follow links in place of its files. "
                + "Replace it with the file itself (or remove it), then retry."
        )
    }

    /// A file that the store opened is a FIFO, a device, a socket or a directory.
    static func notRegularFile(_ path: String, role: String, kind: String) -> KeystoreError {
        make(
            .notRegularFile,
            path: path,
            "The \(role) \(path) is \(kind), not a regular file; it was not read. "
                + "Replace it with the file itself (or remove it), then retry."
        )
    }

    /// The store directory is owned by a user other than the one running atoauth.
    static func foreignOwner(directory: String, owner: UInt32, user: UInt32) -> KeystoreError {
        make(
            .foreignOwner,
            path: directory,
            "The keystore directory \(directory) belongs to user \(owner), not to you (user \(user)), "
                + "so its owner could read or replace your secrets. Use a directory of your own."
        )
    }
}
