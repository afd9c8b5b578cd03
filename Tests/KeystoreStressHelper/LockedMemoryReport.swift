import Foundation
import Keystore

#if canImport(Glibc)
import Glibc
#endif

/// The helper's locked-memory modes: what the store key does to the process's locked memory, and a store that
/// works when nothing may be locked.
enum LockedMemoryReport {
    /// Opens a key-file store, saves and loads through it, releases it, and reports `VmLck` before, while open, and
    /// after.
    static func run(directory: String, keyFile: String) throws {
        let before = try lockedKilobytes()
        let open = try useStore(directory: directory, keyFile: keyFile)
        let after = try lockedKilobytes()
        FileHandle.standardError.write(Data("\(before) \(open) \(after)\n".utf8))
    }

    /// Takes away the right to lock memory, checks that it is gone, and uses a new store in a new directory.
    static func runWithoutLocking() throws {
        var template = Array("/tmp/atoauth-unlocked-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw POSIXError(.EIO) }
        let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        if geteuid() == 0 {
            // Root may lock memory whatever the limit (CAP_IPC_LOCK); the unprivileged `nobody` may not.
            let nobody: uid_t = 65_534
            guard chown(directory, nobody, gid_t(nobody)) == 0, setgroups(0, nil) == 0, setgid(gid_t(nobody)) == 0,
                setuid(nobody) == 0
            else { throw POSIXError(.EPERM) }
        }
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        guard setrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &none) == 0 else { throw POSIXError(.EPERM) }
        guard !canLockAPage() else {
            FileHandle.standardError.write(Data("mlock still succeeds\n".utf8))
            exit(3)
        }
        let locked = try useStore(directory: directory + "/store", keyFile: directory + "/store.key")
        FileHandle.standardError.write(Data("unlocked store works, VmLck \(locked) kB\n".utf8))
    }

    /// Opens the store, saves and loads a value, and returns `VmLck` while the store is open.
    private static func useStore(directory: String, keyFile: String) throws -> Int {
        let store = try EncryptedFileKeystore(
            directory: URL(fileURLWithPath: directory),
            keySource: .keyFile(URL(fileURLWithPath: keyFile))
        )
        try store.save(Data("value".utf8), as: "accounts")
        guard try store.load("accounts") == Data("value".utf8) else { throw POSIXError(.EIO) }
        return try lockedKilobytes()
    }

    /// Whether `mlock` can lock one page now.
    private static func canLockAPage() -> Bool {
        let size = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let page = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            page != MAP_FAILED
        else { return false }
        defer { munmap(page, size) }
        guard mlock(page, size) == 0 else { return false }
        munlock(page, size)
        return true
    }

    /// The process's locked memory in kB, from `/proc/self/status` (proc(5)).
    private static func lockedKilobytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmLck:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw POSIXError(.ENOENT) }
        return kilobytes
    }
}
