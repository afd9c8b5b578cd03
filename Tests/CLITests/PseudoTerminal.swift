import ATOAuthTesting
import Foundation
import Synchronization
import Testing

/// Runs the built `atoauth` with standard input, output and error on a pseudo-terminal, as in a terminal window:
/// the test types into the terminal and reads the screen's byte stream.
final class TerminalProcess: Sendable {
    let process: ChildProcess
    private let controller: Int32
    private let name: String
    private let screen = OutputBuffer()
    private let reader: Task<Void, Never>

    /// Starts `atoauth arguments…` with exactly `environment` on a new pseudo-terminal.
    init(_ arguments: [String], environment: [String: String]) throws {
        let executable = try #require(CLIProcess.executable, "build the atoauth executable first (swift build)")
        let (controller, name) = try PTY.openController()
        let terminal = open(name, O_RDWR | O_NOCTTY)
        try #require(terminal >= 0, "cannot open \(name): errno \(errno)")
        defer { close(terminal) }  // The child holds it now; its exit ends the screen's stream.
        process = try ChildProcess(
            executable,
            arguments,
            environment: environment,
            input: .descriptor(terminal),
            output: .descriptor(terminal),
            error: .descriptor(terminal)
        )
        self.controller = controller
        self.name = name
        let screen = self.screen
        reader = Task {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    var buffer = [UInt8](repeating: 0, count: 4_096)
                    while true {
                        // Read with read(2): after the child exits, Linux answers EIO, which ends the stream.
                        let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
                        if count < 0, errno == EINTR { continue }
                        guard count > 0 else { break }
                        screen.data.withLock { $0.append(contentsOf: buffer[..<count]) }
                    }
                    continuation.resume()
                }
            }
        }
    }

    /// Everything written to the terminal so far.
    var screenSoFar: String { String(decoding: screen.data.withLock { $0 }, as: UTF8.self) }

    /// Types `text` into the terminal.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    }

    /// Waits until the screen shows `text` (`times` times), and returns the screen.
    @discardableResult
    func waitFor(_ text: String, times: Int = 1, timeout: Duration = .seconds(30)) async throws -> String {
        try await Waiting.value("the terminal to show “\(text)” \(times) times: \(screenSoFar)", timeout: timeout) {
            let screen = screenSoFar
            if screen.components(separatedBy: text).count > times { return screen }
            try #require(process.isRunning, "the program ended before the terminal showed “\(text)”: \(screen)")
            return nil
        }
    }

    /// Waits for the exit and returns the status and the whole screen.
    func finish(timeout: Duration = .seconds(60)) async throws -> (status: Int32, screen: String) {
        try await CLIProcess.waitForExit(process, timeout: timeout)
        await reader.value
        return (process.terminationStatus, screenSoFar)
    }

    /// Whether the terminal echoes what is typed (its settings outlive the process that changed them).
    func echoes() throws -> Bool {
        let terminal = open(name, O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        defer { close(terminal) }
        var attributes = termios()
        try #require(tcgetattr(terminal, &attributes) == 0)
        return attributes.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Closes the terminal; a test that failed before the program ended does not leave it running.
    deinit {
        close(controller)
    }
}

/// The C library's pseudo-terminal calls, looked up at run time: Glibc's module map leaves out `posix_openpt`,
/// `grantpt`, `unlockpt` and `ptsname` (declared only for X/Open), and `ioctl` cannot be called from Swift.
private enum PTY {
    private typealias OpenFunction = @convention(c) (Int32) -> Int32
    private typealias NameFunction = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    /// Opens a new pseudo-terminal's controlling side, unlocked; returns its descriptor and the terminal's path.
    static func openController() throws -> (descriptor: Int32, name: String) {
        let library = dlopen(nil, RTLD_NOW)
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            let pointer = try #require(dlsym(library, name), "no \(name) in the C library")
            return unsafeBitCast(pointer, to: type)
        }
        let open = try symbol("posix_openpt", as: OpenFunction.self)
        let grant = try symbol("grantpt", as: OpenFunction.self)
        let unlock = try symbol("unlockpt", as: OpenFunction.self)
        let name = try symbol("ptsname", as: NameFunction.self)
        let descriptor = open(O_RDWR | O_NOCTTY)
        try #require(descriptor >= 0, "no pseudo-terminal: errno \(errno)")
        try #require(grant(descriptor) == 0 && unlock(descriptor) == 0, "cannot unlock the pseudo-terminal")
        return (descriptor, String(cString: try #require(name(descriptor))))
    }
}
