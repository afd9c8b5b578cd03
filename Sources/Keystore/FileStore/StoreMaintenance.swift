#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tidies a store directory when it is opened: tightens loose file modes and removes stale temporary files.
enum StoreMaintenance {
    /// How old an unlocked temporary file must be before it counts as left by a killed writer.
    ///
    /// A writer locks its temporary file right after creating it; the age closes the short gap in between.
    static let staleAge = 10

    /// Resets files open to group or others to `0600` (logging each) and removes stale temporary files.
    static func tidy(_ layout: StoreLayout, logger: Logger) throws {
        for fileName in try SecureDirectory.contents(of: layout.directory) {
            let path = layout.path(fileName)
            if StoreLayout.isTemporaryFile(fileName) {
                removeIfStale(path, logger: logger)
            } else {
                try repairIfLoose(path, logger: logger)
            }
        }
        for fileName in try SecureDirectory.contents(of: layout.locks) {
            let path = layout.locks + "/" + fileName
            if removeIfOrphaned(path, fileName: fileName, layout: layout, logger: logger) { continue }
            try repairIfLoose(path, logger: logger)
        }
    }

    /// Removes the lock file at `path` when its entry does not exist and nobody holds it: what sign-ins and removed
    /// accounts left behind before locks were removed on release.
    private static func removeIfOrphaned(_ path: String, fileName: String, layout: StoreLayout, logger: Logger) -> Bool
    {
        guard fileName.hasSuffix(StoreLayout.lockSuffix) else { return false }
        let stem = String(fileName.dropLast(StoreLayout.lockSuffix.count))
        guard access(layout.path(stem + StoreLayout.entrySuffix), F_OK) != 0,
            let lock = FileLock.acquireIfFree(path: path)
        else { return false }
        lock.release(removingFile: true)
        logger.debug("Removed the lock file of an entry that no longer exists", metadata: ["path": "\(path)"])
        return true
    }

    private static func repairIfLoose(_ path: String, logger: Logger) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        let mode = UInt32(info.st_mode)
        guard FileMode.isRegularFile(mode), FileMode.isLoose(mode) else { return }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            throw KeystoreError.fileSystem("open", path: path, errno: errno)
        }
        defer { close(descriptor) }
        try SecureFile.repair(descriptor: descriptor, path: path, mode: mode, to: FileMode.file, logger: logger)
    }

    /// Removes the temporary file at `path` when no writer holds it and it is older than ``staleAge`` seconds.
    ///
    /// Anything but a regular file under a temporary file's name (a FIFO would block the open) is left alone: the
    /// store never writes one.
    private static func removeIfStale(_ path: String, logger: Logger) {
        guard let descriptor = try? RegularFile.descriptor(path, flags: O_RDONLY, followingLinks: false) else { return }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return }
        #if canImport(Darwin)
        let modified = Int(info.st_mtimespec.tv_sec)
        #else
        let modified = Int(info.st_mtim.tv_sec)
        #endif
        guard Int(time(nil)) - modified >= staleAge else { return }
        if unlink(path) == 0 {
            logger.debug("Removed a stale temporary file", metadata: ["path": "\(path)"])
        }
    }
}
#endif
