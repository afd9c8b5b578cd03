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
/// short sleeps instead of blocking a thread, and lock files are never deleted, since deleting one while another
/// process waits on it would let two holders in.
struct FileLock: Sendable {
    /// The first pause between attempts; it grows by half after each attempt up to ``maximumDelay``.
    static let initialDelay = Duration.milliseconds(2)
    /// The longest pause between attempts.
    static let maximumDelay = Duration.milliseconds(10)

    private let descriptor: Int32

    /// Waits for the lock on the file at `path` without blocking a thread, creating the file (`0600`) if needed.
    ///
    /// Throws `CancellationError` when the task is cancelled and ``KeystoreError/lockTimeout`` after `timeout`.
    static func acquire(path: String, name: String, timeout: Duration) async throws -> FileLock {
        try Task.checkCancellation()
        let descriptor = try openLockFile(path)
        let deadline = ContinuousClock.now + timeout
        var delay = initialDelay
        do {
            while try !tryLock(descriptor, path: path) {
                guard ContinuousClock.now < deadline else {
                    throw KeystoreError.lockTimeout(name: name, path: path, timeout: timeout)
                }
                try await Task.sleep(for: delay)
                delay = min(delay * 1.5, maximumDelay)
            }
        } catch {
            close(descriptor)
            throw error
        }
        return FileLock(descriptor: descriptor)
    }

    /// Waits for the lock on the file at `path` by sleeping the calling thread; for synchronous setup only.
    static func acquireBlocking(path: String, name: String, timeout: Duration) throws -> FileLock {
        let descriptor = try openLockFile(path)
        let deadline = ContinuousClock.now + timeout
        var delay = initialDelay
        do {
            while try !tryLock(descriptor, path: path) {
                guard ContinuousClock.now < deadline else {
                    throw KeystoreError.lockTimeout(name: name, path: path, timeout: timeout)
                }
                let micro = delay.components.attoseconds / 1_000_000_000_000
                usleep(useconds_t(micro))
                delay = min(delay * 1.5, maximumDelay)
            }
        } catch {
            close(descriptor)
            throw error
        }
        return FileLock(descriptor: descriptor)
    }

    /// Releases the lock and closes the lock file.
    func release() {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
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
