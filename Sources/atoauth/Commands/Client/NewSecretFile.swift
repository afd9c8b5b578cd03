import Foundation
import WireFormat

/// Writes a secret to a new file that only its owner can read (mode 0600), never replacing one.
///
/// The file is created with `O_CREAT | O_EXCL | O_NOFOLLOW` and mode 0600, so no other user can read it at any moment,
/// and neither an existing file nor a symbolic link is ever followed or overwritten. A write that fails removes
/// what was created.
enum NewSecretFile {
    /// Creates `path` holding `data`.
    ///
    /// - Throws: `CLIFailure` (usage) when the file exists, (failed) when it cannot be created or written; the
    ///   message names the file and the reason, never the data.
    static func create(_ path: String, holding data: Data) throws {
        let shown = TerminalText.sanitized(path, limit: 200)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(0o600))
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST {
                throw CLIFailure(
                    status: .usage,
                    message: "\(shown) already exists; nothing was written. A key file is never overwritten: give "
                        + "--out a new file name, or move the old file away first."
                )
            }
            throw CLIFailure(
                status: .failed,
                message: "Cannot create \(shown): \(String(cString: strerror(code))). Nothing was written."
            )
        }
        var written = false
        defer {
            close(descriptor)
            if !written { unlink(path) }
        }
        guard fchmod(descriptor, mode_t(0o600)) == 0 else { throw failure("set the mode of", shown, errno) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw failure("write", shown, errno)
                }
                offset += count
            }
        }
        guard fsync(descriptor) == 0 else { throw failure("write", shown, errno) }
        written = true
    }

    private static func failure(_ action: String, _ path: String, _ code: Int32) -> CLIFailure {
        CLIFailure(
            status: .failed,
            message: "Cannot \(action) \(path): \(String(cString: strerror(code))). It was removed; nothing was kept."
        )
    }
}
