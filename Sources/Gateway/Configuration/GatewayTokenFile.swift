public import Foundation
import Keystore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The start-up token's file, held by one gateway for its lifetime.
///
/// ``claim(_:)`` takes an exclusive lock on a file beside it (`<path>.lock`, 0600) before the gateway binds, so a
/// second gateway given the same file stops with ``GatewayError/tokenFileInUse(_:holder:)`` and leaves the token the
/// first one's clients use alone. ``publish(_:address:)`` writes the token once the listener is bound, and records
/// the process ID and address in the lock file for that message; ``remove()`` deletes both on a clean stop. The lock
/// belongs to the process: if it dies, the kernel releases it and the next gateway takes the file over.
public struct GatewayTokenFile: Sendable {
    /// The token file.
    public let url: URL
    private let lock: FileLock

    /// The lock file beside the token file at `url`.
    public static func lockPath(for url: URL) -> String { url.path + ".lock" }

    /// Takes the token file at `url` for this process.
    ///
    /// - Throws: ``GatewayError/tokenFileInUse(_:holder:)`` naming the running gateway's process ID and address
    ///   when another gateway holds it; ``GatewayError/tokenFile(_:_:)`` when the lock file cannot be made.
    public static func claim(_ url: URL) throws -> GatewayTokenFile {
        let path = lockPath(for: url)
        let lock: FileLock?
        do {
            lock = try FileLock.acquireNow(path: path)
        } catch {
            throw GatewayError.tokenFile(url.path, "its lock file \(path) cannot be made (\(error))")
        }
        guard let lock else { throw GatewayError.tokenFileInUse(url.path, holder: holder(of: path)) }
        lock.record("\(getpid())\n")
        return GatewayTokenFile(url: url, lock: lock)
    }

    /// Writes `token` to the file (``GatewayToken/save(_:to:)``: 0600, replaced at once) and records this process
    /// and `address` in the lock file.
    ///
    /// - Throws: ``GatewayError/tokenFile(_:_:)``; never with the token in it.
    public func publish(_ token: String, address: GatewayConfiguration.Listen) throws {
        try GatewayToken.save(token, to: url)
        lock.record("\(getpid())\n\(address)\n")
    }

    /// Deletes the token file and the lock file, and releases the lock: a clean stop leaves no token behind.
    public func remove() {
        unlink(url.path)
        lock.release(removingFile: true)
    }

    /// `PID 1234, listening on http://127.0.0.1:8787`, from what the holder recorded in its lock file.
    static func holder(of lockPath: String) -> String {
        let text = (try? String(contentsOfFile: lockPath, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").map(String.init)
        guard let pid = lines.first.flatMap({ Int32($0) }) else { return "its process ID not yet recorded" }
        guard lines.count > 1 else { return "PID \(pid), not yet listening" }
        return "PID \(pid), listening on \(lines[1])"
    }
}
