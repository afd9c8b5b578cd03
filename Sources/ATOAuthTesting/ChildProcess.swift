public import Failures
public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program a test starts: `posix_spawn` starts it, `waitpid` reaps it; Foundation's `Process` takes no part.
///
/// - The child gets none of this process's descriptors beyond its standard streams. `Process` closes them too, but on
///   Linux it first lists `/proc/self/fd` with a read that overruns glibc's buffer and can crash the test process once
///   about 1,350 descriptors are open (swift-corelibs-foundation#5472, fixed after Swift 6.3); a test run in parallel
///   reaches that.
/// - It gets an empty signal mask and every signal's default action, whatever threads of this process block or ignore.
/// - One dropped while it runs is killed (unless it was started to end by itself) and reaped once it ends, so a test
///   that failed on the way leaves nothing running.
public final class ChildProcess: Sendable {
    /// Where a standard stream of the child goes.
    public enum Stream {
        /// `/dev/null`.
        case null
        /// This descriptor, which stays open here.
        case descriptor(Int32)
        /// The child's end of this pipe (the read end for standard input), which is closed here once the child has it.
        case pipe(Pipe)
    }

    /// How the child ended, in the words of Foundation's `Process`.
    public enum TerminationReason: Sendable {
        case exit
        case uncaughtSignal
    }

    /// The child's process id.
    public let processIdentifier: pid_t
    /// The program's path, then its arguments, for messages.
    public let commandLine: [String]
    /// The raw `waitpid` status, once the child has been reaped.
    private let reaped = Mutex<Int32?>(nil)
    /// Whether dropping this value while the child runs kills it.
    private let killedWhenDropped: Bool

    /// Starts `executable` with `arguments`, with exactly `environment` (this process's when `nil`).
    ///
    /// A child that ends by itself once this process lets go of it (one that stops at the end of its input, say)
    /// passes `killedWhenDropped: false`, so that it can clean up first.
    public init(
        _ executable: URL,
        _ arguments: [String] = [],
        environment: [String: String]? = nil,
        input: Stream = .null,
        output: Stream = .null,
        error: Stream = .null,
        killedWhenDropped: Bool = true
    ) throws {
        commandLine = [executable.path] + arguments
        self.killedWhenDropped = killedWhenDropped
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, target) in [(input, STDIN_FILENO), (output, STDOUT_FILENO), (error, STDERR_FILENO)] {
            switch stream {
            case .null:
                let flags = target == STDIN_FILENO ? O_RDONLY : O_WRONLY
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", flags, 0)
            case .descriptor(let descriptor):
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            case .pipe(let pipe):
                let end = target == STDIN_FILENO ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                posix_spawn_file_actions_adddup2(&actions, end.fileDescriptor, target)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        let flags = try Self.closeInheritedDescriptors(&actions) | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        sigdelset(&signals, SIGKILL)
        sigdelset(&signals, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        let argv = commandLine.map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for pointer in argv + (envp ?? []) { free(pointer) } }
        var pid = pid_t()
        let status =
            if let envp {
                posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
            } else {
                posix_spawn(&pid, executable.path, &actions, &attributes, argv, environ)
            }
        guard status == 0 else {
            throw ChildProcessFailure("cannot start \(executable.path): \(String(cString: strerror(status)))")
        }
        processIdentifier = pid
        for case (.pipe(let pipe), let isInput) in [(input, true), (output, false), (error, false)] {
            try? (isInput ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close()
        }
    }

    /// Has the child close every descriptor above its standard streams as it starts; returns the spawn flags that
    /// takes (none on Linux, where a file action does it).
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) throws -> Int32 {
        #if canImport(Darwin)
        return POSIX_SPAWN_CLOEXEC_DEFAULT
        #else
        // glibc 2.34 and later; Glibc's module map leaves it out, so it is looked up at run time.
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else {
            throw ChildProcessFailure("the C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34)")
        }
        let status = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, STDERR_FILENO + 1)
        guard status == 0 else {
            let reason = String(cString: strerror(status))
            throw ChildProcessFailure("cannot have the child close the descriptors it inherits: \(reason)")
        }
        return 0
        #endif
    }

    /// The raw `waitpid` status once the child has ended (reaping it then), `nil` while it runs.
    private var waitStatus: Int32? {
        reaped.withLock { reaped in
            if reaped == nil {
                var status: Int32 = 0
                var result: pid_t
                repeat { result = waitpid(processIdentifier, &status, WNOHANG) } while result < 0 && errno == EINTR
                if result == processIdentifier { reaped = status }
            }
            return reaped
        }
    }

    /// Whether the child still runs.
    public var isRunning: Bool { waitStatus == nil }

    /// Why the child ended (`exit` while it runs).
    public var terminationReason: TerminationReason {
        guard let status = waitStatus, status & 0x7F != 0 else { return .exit }
        return .uncaughtSignal
    }

    /// The exit status, or the number of the signal that ended the child (0 while it runs).
    public var terminationStatus: Int32 {
        guard let status = waitStatus else { return 0 }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }

    /// Sends `signal` while the child runs; never to a reaped id, which may name another program by now.
    public func signal(_ signal: Int32) {
        reaped.withLock { reaped in
            if reaped == nil { _ = kill(processIdentifier, signal) }
        }
    }

    /// Sends SIGTERM.
    public func terminate() { signal(SIGTERM) }

    /// Waits for the child's end, however long it takes (a test bounds it with its own deadline).
    public func waitUntilExit() async {
        while isRunning {
            await Waiting.atMost(.seconds(3600)) { !isRunning }
        }
    }

    /// Waits up to `timeout` for the end, then kills the child and waits for that; says whether it ended by itself.
    @discardableResult
    public func waitForExit(killingAfter timeout: Duration) async -> Bool {
        if await Waiting.atMost(timeout, until: { !isRunning }) { return true }
        signal(SIGKILL)
        await waitUntilExit()
        return false
    }

    /// Sends `signal`, then waits as ``waitForExit(killingAfter:)`` does; says whether the child ended by itself.
    @discardableResult
    public func stop(_ signal: Int32, within timeout: Duration) async -> Bool {
        self.signal(signal)
        return await waitForExit(killingAfter: timeout)
    }

    deinit {
        let pid = processIdentifier
        guard reaped.withLock({ $0 }) == nil else { return }
        if killedWhenDropped { _ = kill(pid, SIGKILL) }
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }
}

/// A child process could not be started.
public struct ChildProcessFailure: CategorizedError, CustomStringConvertible {
    /// What went wrong: the program and the C library's reason.
    public var description: String

    init(_ description: String) {
        self.description = description
    }

    /// The program could not be started.
    public var category: FailureCategory { .failed }

    /// This machine: the program's file, or the C library.
    public var origin: FailureOrigin { .machine }
}
