import Foundation
import Synchronization

/// Turns off the terminal's echo of standard input while a secret or a pasted redirect address is read, as a password
/// prompt does, so what is typed is not shown; echo comes back when reading ends and at exit.
enum TerminalEcho {
    private struct State {
        /// The terminal settings to restore, while echo is off.
        var saved: termios?
        /// How many ``keepingHidden(_:)`` calls are running: while any is, ``restore()`` leaves echo off.
        var holds = 0
    }

    private static let state = Mutex(State())

    /// Turns echo off when standard input is a terminal; does nothing otherwise.
    static func hide() {
        guard isatty(STDIN_FILENO) == 1 else { return }
        var attributes = termios()
        guard tcgetattr(STDIN_FILENO, &attributes) == 0 else { return }
        let first = state.withLock { state in
            defer { if state.saved == nil { state.saved = attributes } }
            return state.saved == nil
        }
        guard first else { return }
        // exit() runs this however the command ends: success, an error, or a second Ctrl-C.
        atexit { TerminalEcho.putBack() }
        attributes.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &attributes)
    }

    /// Puts echo back as it was; does nothing when it was not turned off, or while ``keepingHidden(_:)`` runs.
    static func restore() {
        guard state.withLock({ $0.holds == 0 }) else { return }
        putBack()
    }

    /// Runs `body` with echo off from start to end, whatever it reads in between: a line typed ahead while one
    /// secret is being checked, before the next prompt, is not shown either.
    static func keepingHidden<Value>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Value
    ) async rethrows -> Value {
        hide()
        state.withLock { $0.holds += 1 }
        defer {
            state.withLock { $0.holds -= 1 }
            restore()
        }
        return try await body()
    }

    private static func putBack() {
        guard
            var attributes = state.withLock({ state in
                defer { state.saved = nil }
                return state.saved
            })
        else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &attributes)
    }
}
