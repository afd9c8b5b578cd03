import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a program with `posix_spawn` and reaps it with `waitpid`, without Foundation's `Process`.
///
/// The child gets an empty signal mask: a child of `Process` may inherit a mask that blocks `SIGCHLD` from the thread
/// that started it. And Foundation learns that a `Process` child ended when a socket the child inherited closes, so a
/// long-lived child of `Process` that closed its inherited descriptors would look ended, and one that kept another
/// child's socket would hide that child's end; a child of this type is none of Foundation's business.
enum SpawnedProcess {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `executable` with `arguments` and this process's environment; `nil` streams go to `/dev/null`.
    static func spawn(
        _ executable: String,
        _ arguments: [String],
        input: Int32?,
        output: Int32?,
        error: Int32?
    ) throws
        -> pid_t
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (source, target) in [(input, 0), (output, 1), (error, 2)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, Int32(target))
            } else {
                posix_spawn_file_actions_addopen(
                    &actions,
                    Int32(target),
                    "/dev/null",
                    target == 0 ? O_RDONLY : O_WRONLY,
                    0
                )
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard status == 0 else {
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        return pid
    }

    /// Whether `pid` has ended; reaps it and returns its exit status (`128 + signal` for a signal) when it has.
    static func poll(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, WNOHANG) } while result < 0 && errno == EINTR
        guard result == pid else { return result < 0 ? 255 : nil }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Waits for `pid` to end, however long it takes, and returns its exit status.
    static func exitStatus(_ pid: pid_t) async -> Int32 {
        var status: Int32?
        while status == nil {
            await Waiting.atMost(.seconds(3600)) {
                status = poll(pid)
                return status != nil
            }
        }
        return status ?? 255
    }
}
