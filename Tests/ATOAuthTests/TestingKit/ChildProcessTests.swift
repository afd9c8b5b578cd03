import ATOAuthTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The testing kit's child processes: what they inherit, how they end, and that none outlives its test.
@Suite("The testing kit's ChildProcess")
struct ChildProcessTests {
    /// The descriptors a child has, as `ls /proc/self/fd` run in it lists them (its own listing's one among them).
    static func descriptorsOfAChild() async throws -> Set<Int> {
        let listing = try await ChildProcess.run(URL(fileURLWithPath: "/bin/ls"), ["/proc/self/fd"])
        try #require(listing.status == 0, "\(listing.standardError)")
        return Set(listing.standardOutput.split(separator: "\n").compactMap { Int($0) })
    }

    @Test("a child starts while 1,500 more descriptors are open here, and inherits none of them")
    func manyOpenDescriptors() async throws {
        // Foundation's `Process` lists /proc/self/fd with a read that can overrun glibc's buffer from about 1,350
        // open descriptors on; the kit lists nothing.
        var limit = rlimit()
        try #require(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        try #require(limit.rlim_max >= 4_096, "the hard limit on open files is \(limit.rlim_max)")
        if limit.rlim_cur < 4_096 {
            limit.rlim_cur = 4_096
            try #require(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        }
        let opened = (0..<1_500).map { _ in open("/dev/null", O_RDONLY) }  // Inheritable: no O_CLOEXEC.
        defer { for descriptor in opened where descriptor >= 0 { close(descriptor) } }
        try #require(opened.allSatisfy { $0 >= 0 }, "errno \(errno)")
        let inherited = try await Self.descriptorsOfAChild()
        #expect(inherited.isDisjoint(with: opened.map(Int.init)), "\(inherited.sorted())")
        #expect(inherited.isSuperset(of: [0, 1, 2]) && inherited.count <= 4, "\(inherited.sorted())")
    }

    @Test("a child runs with exactly the environment given, and gets its input and gives back both outputs")
    func environmentAndStreams() async throws {
        let env = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), environment: ["ONLY": "this"])
        #expect(env.standardOutput == "ONLY=this\n")
        let script = "cat; echo to-stderr >&2; exit 3"
        let shell = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", script],
            input: Data("from stdin\n".utf8)
        )
        #expect(shell.reason == .exit && shell.status == 3)
        #expect(shell.standardOutput == "from stdin\n" && shell.standardError == "to-stderr\n")
    }

    @Test("a signal's end is told apart from an exit, and no signal is blocked or ignored in the child")
    func signals() async throws {
        let killed = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "kill -TERM $$"])
        #expect(killed.reason == .uncaughtSignal && killed.status == SIGTERM)
        // A process that ignores SIGPIPE, as servers do, must not pass that on. Only the 31 standard signals are
        // looked at: glibc keeps 32 and 33 for itself, and no program can set them.
        let before = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, before) }
        let status = try await ChildProcess.run(URL(fileURLWithPath: "/bin/cat"), ["/proc/self/status"])
        let masks = status.standardOutput.split(separator: "\n")
            .filter { $0.hasPrefix("SigBlk:") || $0.hasPrefix("SigIgn:") }
            .compactMap { UInt64($0.dropFirst("SigXxx:".count).trimmingCharacters(in: .whitespaces), radix: 16) }
        #expect(masks.count == 2 && masks.allSatisfy { $0 & 0x7FFF_FFFF == 0 }, "\(status.standardOutput)")
    }

    @Test("a child dropped while it runs is killed and reaped; one started to end by itself is only reaped")
    func dropped() async throws {
        func pidOfADroppedSleep(killed: Bool) throws -> pid_t {
            // A child that would run for five minutes, to be killed when dropped; nothing waits on its pause.
            try ChildProcess(URL(fileURLWithPath: "/bin/sleep"), ["300"], killedWhenDropped: killed).processIdentifier
        }
        let killed = try pidOfADroppedSleep(killed: true)
        try await Waiting.until("the dropped child \(killed) to be killed and reaped") {
            !FileManager.default.fileExists(atPath: "/proc/\(killed)")
        }
        // The shell writes the file only once its input has ended, which happens after it was dropped: killed then,
        // it would never write it.
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("atoauth-child-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: marker) }
        let input = Pipe()
        let left = try ChildProcess(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"read line; echo ended > "$0""#, marker.path],
            input: .pipe(input),
            killedWhenDropped: false
        ).processIdentifier
        try input.fileHandleForWriting.close()
        try await Waiting.until("the dropped shell \(left) to end by itself and be reaped") {
            let wrote = (try? String(contentsOf: marker, encoding: .utf8)) == "ended\n"
            return wrote && !FileManager.default.fileExists(atPath: "/proc/\(left)")
        }
    }
}
