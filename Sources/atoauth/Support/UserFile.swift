import Foundation
import Keystore
import WireFormat

/// The files a user names on the command line (`--input @FILE`, `client check FILE`, `--jwks FILE`, `--client-key
/// FILE`), read the way the store reads its own: a FIFO, device, socket or directory is refused before anything is
/// read from it, so a command never hangs on one (``RegularFile``).
enum UserFile {
    /// Reads the regular file at `path`, following links, when it holds at most `limit` bytes.
    ///
    /// - Parameters:
    ///   - path: the file as the user named it.
    ///   - limit: the most bytes the file may hold.
    ///   - what: names the file in the message, such as "the input file".
    ///   - missingAdvice: a sentence added when nothing is at `path`.
    ///   - tooLarge: the message for a longer file, given the path made safe to print.
    /// - Returns: its bytes and mode.
    /// - Throws: a usage ``CLIFailure``: `Cannot read <what> <path>: <reason>.`, or the `tooLarge` message.
    static func read(
        _ path: String,
        limit: Int,
        what: String,
        missingAdvice: String? = nil,
        tooLarge: (_ shownPath: String) -> String
    ) throws -> RegularFile.Contents {
        let shown = TerminalText.sanitized(path, limit: 200)
        let file: RegularFile.Contents
        do {
            file = try RegularFile.read(path, limit: limit)
        } catch {
            var message = "Cannot read \(what) \(shown): \(error.reason)."
            if error == .missing, let missingAdvice { message += " " + missingAdvice }
            throw CLIFailure(status: .usage, message: message)
        }
        guard !file.exceedsLimit else { throw CLIFailure(status: .usage, message: tooLarge(shown)) }
        return file
    }
}
