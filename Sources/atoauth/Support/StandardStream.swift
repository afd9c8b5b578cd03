import ArgumentParser
import Foundation
import Synchronization

/// Stdout or stderr, written with `write(2)`: the one place the tool's output leaves the process.
///
/// When the stream's reader has gone away (`atoauth xrpc … --paginate | head -3`), a write fails with `EPIPE`: SwiftNIO
/// ignores SIGPIPE for the whole process, so the signal that would end a C program does not come. The process then
/// exits at once, quietly, with status 141 (128 + SIGPIPE), the status a shell shows for coreutils or `gh` in the same
/// place; nothing more is written anywhere.
struct StandardStream: Sendable {
    let descriptor: Int32

    /// Standard output.
    static let output = StandardStream(descriptor: STDOUT_FILENO)
    /// Standard error.
    static let error = StandardStream(descriptor: STDERR_FILENO)

    /// Whether some thread is already ending the process, so that only one calls `exit`.
    private static let exiting = Mutex(false)

    /// Writes every byte of `data`, retrying interrupted and short writes; a closed pipe ends the process with 141.
    ///
    /// A stream in non-blocking mode (shared with another program that set `O_NONBLOCK`) is waited on until it takes
    /// more. Any other failure (a full disk, a stream that was closed) drops the rest, as writing to stderr must never
    /// itself fail the command.
    func write(_ data: Data) {
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let count = systemWrite(descriptor, base + offset, buffer.count - offset)
                if count >= 0 {
                    offset += count
                    continue
                }
                switch errno {
                case EINTR:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&poller, 1, -1)
                case EPIPE:
                    Self.endForClosedPipe()
                default:
                    return
                }
            }
        }
    }

    /// Writes `text` as UTF-8.
    func write(_ text: String) {
        write(Data(text.utf8))
    }

    /// Exits with 141 without a word: there is no one left to read one.
    ///
    /// `exit` runs the `atexit` handlers (terminal echo is put back); a second thread that meets the closed pipe
    /// meanwhile waits for the exit instead of calling `exit` again.
    private static func endForClosedPipe() -> Never {
        let first = exiting.withLock { exiting in
            defer { exiting = true }
            return !exiting
        }
        if first { exit(ExitCode.closedPipe.rawValue) }
        while true { pause() }
    }
}

/// Calls `write(2)`; a file-scope function, so that inside ``StandardStream/write(_:)-(Data)`` the name still reaches
/// libc.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
