import Foundation
import Synchronization

/// Turns off the terminal's echo of standard input while a pasted redirect address is read, as a password prompt
/// does, so the authorization code in it is not shown; echo comes back when reading ends and at exit.
enum TerminalEcho {
    /// The terminal settings to restore, while echo is off.
    private static let saved = Mutex<termios?>(nil)

    /// Turns echo off when standard input is a terminal; does nothing otherwise.
    static func hide() {
        guard isatty(STDIN_FILENO) == 1 else { return }
        var attributes = termios()
        guard tcgetattr(STDIN_FILENO, &attributes) == 0 else { return }
        let first = saved.withLock { saved in
            defer { if saved == nil { saved = attributes } }
            return saved == nil
        }
        guard first else { return }
        // exit() runs this however the command ends: success, an error, or a second Ctrl-C.
        atexit { TerminalEcho.restore() }
        attributes.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &attributes)
    }

    /// Puts echo back as it was; does nothing when it was not turned off.
    static func restore() {
        guard
            var attributes = saved.withLock({ saved in
                defer { saved = nil }
                return saved
            })
        else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &attributes)
    }
}
