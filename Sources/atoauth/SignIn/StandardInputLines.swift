import Foundation

/// The lines of standard input, read on a thread of their own so that a blocking read never holds up the tasks.
///
/// The stream ends at end of file or on a read error. A line longer than `maximumLength` bytes is cut one byte past
/// it (so the reader can tell it was too long), and the rest up to the line break is dropped.
enum StandardInputLines {
    /// The longest line kept whole, the longest pasted redirect address; each reader refuses what is too long for it.
    static let maximumLength = 8_192

    /// The one reader of this process's standard input, started on first use; its lines go to whoever asks next
    /// (the store passphrase, then an app password and a sign-in code, or a pasted address), one consumer at a time.
    static let shared = start(maximumLength: maximumLength)

    /// Starts reading standard input; call once per process (``shared`` does).
    private static func start(maximumLength: Int) -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(16))
        let thread = Thread {
            var line = Data()
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                for byte in buffer[..<count] {
                    if byte == UInt8(ascii: "\n") {
                        continuation.yield(String(decoding: line, as: UTF8.self))
                        line.removeAll(keepingCapacity: true)
                    } else if line.count <= maximumLength {
                        line.append(byte)
                    }
                }
            }
            if !line.isEmpty { continuation.yield(String(decoding: line, as: UTF8.self)) }
            continuation.finish()
        }
        thread.name = "atoauth-stdin"
        thread.start()
        return lines
    }
}
