import Foundation
import Keystore
import WireFormat

/// The files a user names on the command line (`--input @FILE`, `client check FILE`, `--jwks FILE`, `--client-key
/// FILE`), read the way the store reads its own: a FIFO, device, socket or directory is refused before anything is
/// read from it, so a command never hangs on one (``RegularFile``).
enum UserFile {
    /// Reads at most `limit` bytes of the regular file at `path`, following links.
    ///
    /// - Parameters:
    ///   - path: the file as the user named it.
    ///   - limit: the most bytes read; ``RegularFile/Contents/exceedsLimit`` tells a longer file.
    ///   - what: names the file in the message, such as "the input file".
    ///   - missingAdvice: a sentence added when nothing is at `path`.
    /// - Returns: its bytes and mode.
    /// - Throws: a usage ``CLIFailure``: `Cannot read <what> <path>: <reason>.`
    static func read(
        _ path: String,
        limit: Int,
        what: String,
        missingAdvice: String? = nil
    ) throws -> RegularFile.Contents {
        do {
            return try RegularFile.read(path, limit: limit)
        } catch {
            var message = "Cannot read \(what) \(TerminalText.sanitized(path, limit: 200)): \(error.reason)."
            if error == .missing, let missingAdvice { message += " " + missingAdvice }
            throw CLIFailure(status: .usage, message: message)
        }
    }

    /// The permission bits of `mode` as four octal digits, such as `0644`.
    static func octal(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
