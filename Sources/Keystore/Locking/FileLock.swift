#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory `flock(2)` lock on a lock file, held until ``release()``.
///
/// Each acquisition opens the lock file anew. `flock` locks belong to an open file description, so two
/// acquisitions in one process exclude each other just as two processes do. Waiting polls with `LOCK_NB` and
/// short sleeps instead of blocking a thread.
///
/// A lock file may be deleted, but only by its holder (``release(removingFile:)``): an acquirer that gets the lock
/// checks that the file it locked is still the one at the path, and starts over on the new file when it is not, so
/// a waiter on a deleted file never becomes a second holder.
package struct FileLock: Sendable {
    /// The first pause between attempts; it grows by half after each attempt up to ``maximumDelay``.
    static let initialDelay = Duration.milliseconds(2)
    /// The longest pause between attempts.
    static let maximumDelay = Duration.milliseconds(10)

    private let descriptor: Int32
    private let path: String

    /// Waits for the lock on the file at `path` without blocking a thread, creating the file (`0600`) if needed.
    ///
    /// Throws `CancellationError` when the task is cancelled and ``KeystoreError/lockTimeout`` after `timeout`.
    static func acquire(path: String, name: String, timeout: Duration) async throws -> FileLock {
        try Task.checkCancellation()
        var wait = Wait(path: path, name: name, timeout: timeout)
        while true {
            if let lock = try wait.attempt() { return lock }
            try await Task.sleep(for: wait.nextPause())
        }
    }

    /// Waits for the lock on the file at `path` by sleeping the calling thread; for synchronous setup only.
    ///
    /// Throws `CancellationError` when the task that calls it is cancelled (a Ctrl-C while another process opens the
    /// store), checked between attempts.
    static func acquireBlocking(path: String, name: String, timeout: Duration) throws -> FileLock {
        var wait = Wait(path: path, name: name, timeout: timeout)
        while true {
            if let lock = try wait.attempt() { return lock }
            try Task.checkCancellation()
            usleep(useconds_t(wait.nextPause().components.attoseconds / 1_000_000_000_000))
        }
    }

    /// One wait for a lock: each attempt, the deadline, and the pauses between attempts.
    private struct Wait {
        let path: String
        let name: String
        let timeout: Duration
        let deadline: ContinuousClock.Instant
        var pause = FileLock.initialDelay

        init(path: String, name: String, timeout: Duration) {
            self.path = path
            self.name = name
            self.timeout = timeout
            self.deadline = .now + timeout
        }

        /// The lock when it is free now; `nil` to try again; ``KeystoreError/lockTimeout`` once the deadline passed.
        func attempt() throws -> FileLock? {
            if let lock = try FileLock.attempt(path: path) { return lock }
            guard ContinuousClock.now < deadline else {
                throw KeystoreError.lockTimeout(name: name, path: path, timeout: timeout)
            }
            return nil
        }

        /// The pause before the next attempt; each is half as long again as the last, up to the longest.
        mutating func nextPause() -> Duration {
            defer { pause = min(pause * 1.5, FileLock.maximumDelay) }
            return pause
        }
    }

    /// Opens (or creates) the lock file and tries once to lock it: the lock, or `nil` when another holder has it or
    /// the file locked was deleted by its last holder meanwhile (the next attempt opens the new one).
    private static func attempt(path: String) throws -> FileLock? {
        let descriptor = try openLockFile(path)
        do {
            if try tryLock(descriptor, path: path), isStillAtPath(descriptor, path) {
                return FileLock(descriptor: descriptor, path: path)
            }
        } catch {
            close(descriptor)
            throw error
        }
        close(descriptor)
        return nil
    }

    /// Takes the lock on the file at `path` (creating it, `0600`) only when it is free at once: the lock, or `nil`
    /// when another holder has it; for a lock held for a process's lifetime, such as a gateway's token file.
    package static func acquireNow(path: String) throws -> FileLock? {
        while true {
            if let lock = try attempt(path: path) { return lock }
            // A holder that deleted the file meanwhile leaves a new one to try; one that holds it answers `nil`.
            guard let descriptor = try? openLockFile(path) else { return nil }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return nil }
            _ = flock(descriptor, LOCK_UN)
        }
    }

    /// Replaces what the lock file holds with `text`, for others to read who the holder is (never a secret: any
    /// process of the user may read it).
    ///
    /// - Returns: whether it was written whole.
    @discardableResult
    package func record(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard ftruncate(descriptor, 0) == 0 else { return false }
        return bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) } == bytes.count
    }

    /// Takes the lock on the file at `path` only when it is free at once and the file exists; for sweeping.
    static func acquireIfFree(path: String) -> FileLock? {
        let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, isStillAtPath(descriptor, path) else {
            close(descriptor)
            return nil
        }
        return FileLock(descriptor: descriptor, path: path)
    }

    /// Releases the lock and closes the lock file; with `removingFile`, deletes the file first, while still holding
    /// the lock, so that every waiter on it starts over on a new file.
    package func release(removingFile: Bool = false) {
        if removingFile { _ = unlink(path) }
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Whether the open file `descriptor` is still the file at `path`, and not one deleted by its last holder.
    private static func isStillAtPath(_ descriptor: Int32, _ path: String) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(descriptor, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    private static func openLockFile(_ path: String) throws -> Int32 {
        guard
            let descriptor = try RegularFile.open(
                path,
                flags: O_RDWR | O_CREAT,
                mode: mode_t(FileMode.file),
                role: "lock file"
            )
        else {
            throw KeystoreError.fileSystem("open lock file", path: path, errno: ENOENT)
        }
        guard fchmod(descriptor, mode_t(FileMode.file)) == 0 else {
            let code = errno
            close(descriptor)
            throw KeystoreError.fileSystem("set permissions of", path: path, errno: code)
        }
        return descriptor
    }

    /// Tries once to take the lock, returning `false` when another holder has it.
    private static func tryLock(_ descriptor: Int32, path: String) throws -> Bool {
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            switch errno {
            case EINTR: continue
            case EWOULDBLOCK: return false
            case let code: throw KeystoreError.fileSystem("lock", path: path, errno: code)
            }
        }
    }
}
