import Dispatch
import Foundation
import Synchronization
import WireFormat

/// The single line on a terminal's standard error that says the sign-in is waiting and until when, rewritten in
/// place every second (a carriage return, then "erase to the end of the line"); never used when standard error is
/// not a terminal, so logs and pipes get no carriage returns.
///
/// The line never wraps: "erase to the end of the line" clears one row only, so a wrapped line would leave a row
/// behind on every tick. It is shortened to the terminal's width, read again on every tick and at once when the
/// terminal is resized (`SIGWINCH`).
final class WaitingLine: Sendable {
    private let subject: String
    private let deadline: Date
    private let drawn = Mutex(false)

    /// A line for a wait on `subject` until `deadline`, or `nil` when standard error is not a terminal.
    static func onTerminal(waitingFor subject: String, until deadline: Date) -> WaitingLine? {
        isatty(STDERR_FILENO) == 1 ? WaitingLine(subject: subject, deadline: deadline) : nil
    }

    private init(subject: String, deadline: Date) {
        self.subject = subject
        self.deadline = deadline
    }

    /// The line's text at `now`: what it waits for, the deadline in local time, and the time left, in at most
    /// `width - 1` characters (the last column is left free, where some terminals wrap early).
    ///
    /// For example `Waiting for the browser until 14:05:33 (4:59 left)… Ctrl-C cancels.`; a deadline on another day
    /// also shows its date. Narrower, it drops the Ctrl-C hint, then what it waits for, then the deadline:
    /// `Waiting (4:59 left)…`, and at the narrowest `4:59 left`, cut to fit.
    static func text(
        waitingFor subject: String,
        until deadline: Date,
        now: Date,
        timeZone: TimeZone,
        width: Int = .max
    ) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = calendar.isDate(deadline, inSameDayAs: now) ? "HH:mm:ss" : "yyyy-MM-dd HH:mm:ss"
        let seconds = max(0, Int(deadline.timeIntervalSince(now).rounded(.up)))
        let (hours, minutes, rest) = (seconds / 3_600, seconds / 60 % 60, seconds % 60)
        let left =
            hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
        let until = formatter.string(from: deadline)
        let forms = [
            "Waiting for \(subject) until \(until) (\(left) left)… Ctrl-C cancels.",
            "Waiting for \(subject) until \(until) (\(left) left)…",
            "Waiting until \(until) (\(left) left)…",
            "Waiting (\(left) left)…",
            "\(left) left",
        ]
        let room = max(1, width - 1)
        return forms.first { $0.count <= room } ?? String(forms[forms.count - 1].prefix(room))
    }

    /// The terminal's width in columns: standard error's terminal size (`TIOCGWINSZ`), else `COLUMNS`, else 80.
    ///
    /// The terminal's own size comes first, unlike for messages: the line is redrawn in place, and one wider than
    /// the terminal (after a resize, which `COLUMNS` does not follow) would wrap and leave its copies behind.
    static func terminalWidth() -> Int {
        if let columns = TerminalLayout.terminalColumns(of: STDERR_FILENO) { return columns }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 {
            return columns
        }
        return 80
    }

    /// Draws the line every second, and at once when the terminal is resized, until the task is cancelled.
    func run() async {
        signal(SIGWINCH, SIG_IGN)
        let resized = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        resized.setEventHandler { [weak self] in self?.draw() }
        resized.resume()
        defer {
            resized.cancel()
            signal(SIGWINCH, SIG_DFL)
        }
        while !Task.isCancelled {
            draw()
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Prints a message on a line of its own above the waiting line.
    func message(_ text: String) {
        drawn.withLock { drawn in
            Self.write("\r\u{1B}[K" + Output.laidOut(text) + "\n")
            drawn = false
        }
        draw()
    }

    /// Erases the line, leaving the cursor at the start of the empty line.
    func clear() {
        drawn.withLock { drawn in
            if drawn { Self.write("\r\u{1B}[K") }
            drawn = false
        }
    }

    private func draw() {
        let text = Self.text(
            waitingFor: subject,
            until: deadline,
            now: Date(),
            timeZone: .current,
            width: Self.terminalWidth()
        )
        drawn.withLock { drawn in
            // Only this line's own erase sequence is a control; what it shows is made safe like all output.
            Self.write("\r\u{1B}[K" + TerminalText.printable(text))
            drawn = true
        }
    }

    private static func write(_ text: String) {
        StandardStream.error.write(text)
    }
}
