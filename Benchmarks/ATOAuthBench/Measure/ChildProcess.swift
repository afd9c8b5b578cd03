import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts programs with `posix_spawn` and reaps them with `wait4`, which reports each child's own CPU time.
///
/// `wait4` also reports a peak resident size, but not one to trust here: Linux records the high-water mark of the
/// memory a process leaves at `exec`, and a `posix_spawn` child leaves its parent's (it runs in the parent's memory
/// until `exec`), so every child of this large process would seem to peak at this process's size. Peak memory is
/// read through GNU `time` instead, a small process whose own children start clean (see ``PeakMemory``).
enum ChildProcess {
    /// How a child ended and what it used.
    struct Exit: Sendable {
        /// The exit status, or `128 + signal` when a signal ended it.
        var status: Int32
        /// User plus system CPU time of the child.
        var cpu: Duration
    }

    /// A finished run: its exit, wall time and captured output.
    struct Run: Sendable {
        /// How the child ended.
        var exit: Exit
        /// From spawn to reaping.
        var wall: Duration
        /// Standard output and standard error together.
        var output: String
    }

    /// Where the child's standard streams go: file descriptors of this process, or `nil` to inherit.
    struct Streams {
        var input: Int32?
        var output: Int32?
        var error: Int32?
    }

    /// Starts `executable` with `arguments` and `environment`, returning its process id.
    static func spawn(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String],
        streams: Streams
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (source, target) in [(streams.input, 0), (streams.output, 1), (streams.error, 2)] {
            if let source { posix_spawn_file_actions_adddup2(&actions, source, Int32(target)) }
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard status == 0 else { throw BenchError("cannot start \(executable): \(String(cString: strerror(status)))") }
        return pid
    }

    /// Waits for `pid` to end, on a thread of its own so no Swift concurrency thread blocks.
    static func wait(for pid: pid_t) async -> Exit {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: waitBlocking(pid)) }
        }
    }

    /// Runs a program to its end with its output captured, measuring wall time, CPU time and peak memory.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]) async throws -> Run {
        let capture = FileManager.default.temporaryDirectory
            .appendingPathComponent("atoauth-bench-\(UUID().uuidString).out").path
        let descriptor = open(capture, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BenchError("cannot create \(capture)") }
        defer { unlink(capture) }
        let started = Clocks.wall()
        let pid: pid_t
        do {
            pid = try spawn(
                executable,
                arguments,
                environment: environment,
                streams: Streams(input: nil, output: descriptor, error: descriptor)
            )
        } catch {
            close(descriptor)
            throw error
        }
        close(descriptor)
        let exit = await wait(for: pid)
        let wall = Clocks.wall() - started
        let output = (try? String(contentsOfFile: capture, encoding: .utf8)) ?? ""
        return Run(exit: exit, wall: wall, output: output)
    }

    private static func waitBlocking(_ pid: pid_t) -> Exit {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        let code = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        let cpu = duration(usage.ru_utime) + duration(usage.ru_stime)
        return Exit(status: code, cpu: cpu)
    }

    private static func duration(_ time: timeval) -> Duration {
        .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec))
    }
}
