import Foundation
import FuzzSupport

/// A fresh directory for this run's stores, which the caller removes at exit.
///
/// It is in memory (`/dev/shm`) where there is one, since every save syncs. Directories of earlier runs that crashed
/// are removed.
func makeScratchDirectory() -> URL {
    let parent =
        FileManager.default.isWritableFile(atPath: "/dev/shm")
        ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
    let prefix = "atoauth-fuzz-keystore-"
    for stale in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] where stale.hasPrefix(prefix)
    {
        if let pid = pid_t(stale.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH {
            try? FileManager.default.removeItem(at: parent.appending(path: stale))
        }
    }
    let directory = parent.appending(path: prefix + "\(getpid())")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// Writes `bytes` to the file at `path` (bytes, as the file system takes them) with mode 0600, as the store writes
/// its files, replacing what was there.
func write(_ bytes: [UInt8], to path: [UInt8]) {
    let cPath = path.map { CChar(bitPattern: $0) } + [0]
    unlink(cPath)
    let descriptor = open(cPath, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    invariant(descriptor >= 0, "\(String(decoding: path, as: UTF8.self)) can be created")
    defer { close(descriptor) }
    invariant(
        bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) } == bytes.count,
        "the file is written"
    )
}

/// The bytes of the file at `path`, read with `read(2)`: Foundation's reading of an empty file on Linux loses a
/// 4 KiB buffer (`FileManager.contents(atPath:)`), which LeakSanitizer would report as this target's leak.
func contents(of path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return count == 0 ? bytes : nil }
        bytes += chunk[..<count]
    }
}

/// Writes `bytes` to the file at `path`.
func write(_ bytes: [UInt8], to path: String) {
    write(bytes, to: Array(path.utf8))
}

/// Removes the file at `path`.
func remove(_ path: [UInt8]) {
    unlink(path.map { CChar(bitPattern: $0) } + [0])
}

/// Writes `bytes` to `path` and runs `read`; when it fails, its error must print safely and the file must be left as
/// it was.
func checkRefused(_ bytes: [UInt8], at path: String, _ read: () throws -> Void) {
    write(bytes, to: path)
    do {
        try read()
    } catch {
        invariantPrintable(error)
        invariant(contents(of: path) == bytes, "the refused file \(path) is left as it was")
    }
}
