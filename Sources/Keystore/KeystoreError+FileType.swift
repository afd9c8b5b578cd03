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

    /// A store directory reached through a symbolic link is open to group or others; atoauth does not change modes
    /// through a link.
    static func looseLinkedDirectory(_ path: String, mode: UInt32) -> KeystoreError {
        make(
            .foreignOwner,
            path: path,
            "The keystore directory \(path) is a symbolic link to a directory with mode \(FileMode.octal(mode)), open to "
                + "other users; atoauth does not change modes through a link. Run chmod 700 on the directory it points "
                + "to, or use a directory of your own."
        )
    }

    /// A symbolic link in place of a store directory belongs to another user, who could point it anywhere.
    static func foreignLink(_ path: String, owner: UInt32, user: UInt32) -> KeystoreError {
        make(
            .foreignOwner,
            path: path,
            "The keystore directory \(path) is a symbolic link that belongs to user \(owner), not to you (user "
                + "\(user)), so its owner could point it anywhere. Use a directory of your own."
        )
    }
}
