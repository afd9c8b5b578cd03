import Foundation
import Synchronization

/// Opens a URL in the user's browser: `$BROWSER <url>` when set, else the platform opener.
enum BrowserOpener {
    /// How starting the opener went.
    enum Launch: Sendable {
        /// The opener runs; ``BrowserProcess/failure()`` tells if it fails later.
        case started(BrowserProcess)
        /// The opener could not be started; the reason, for the user.
        case failed(String)
    }

    /// Starts the opener and returns without waiting for the browser; a failure is reported, not thrown, because
    /// the URL is always printed too.
    static func open(_ url: URL, environment: [String: String]) -> Launch {
        let process = Process()
        let name: String
        if let browser = environment["BROWSER"], !browser.isEmpty {
            // $BROWSER may carry arguments; the shell splits it, and the URL is passed as a separate argument.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(browser) \"$1\"", "atoauth-browser", url.absoluteString]
            name = "$BROWSER"
        } else {
            #if os(macOS)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
            process.arguments = [url.absoluteString]
            name = "open"
            #else
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["xdg-open", url.absoluteString]
            name = "xdg-open"
            #endif
        }
        process.environment = withoutSecrets(ProcessInfo.processInfo.environment)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        // A browser's own messages would break up atoauth's; atoauth says itself when the opener fails.
        process.standardError = FileHandle.nullDevice
        let browser = BrowserProcess(name: name, process: process)
        process.terminationHandler = { browser.exited(status: $0.terminationStatus, reason: $0.terminationReason) }
        do {
            try process.run()
        } catch {
            return .failed("\(name) could not be started: \(error.localizedDescription)")
        }
        return .started(browser)
    }

    /// The `ATOAUTH_*` variables that hold secrets, which the browser never needs.
    static let secretVariables: Set<String> = [
        "ATOAUTH_PASSPHRASE", "ATOAUTH_APP_PASSWORD", "ATOAUTH_AUTH_FACTOR", "ATOAUTH_KEY_FILE", "ATOAUTH_STORE",
    ]

    /// Returns `environment` without the variables in ``secretVariables``, any other `ATOAUTH_*` variable whose
    /// name says it holds a secret (a password, passphrase, token, key or factor), and `PGPASSWORD`.
    static func withoutSecrets(_ environment: [String: String]) -> [String: String] {
        let secretWords = ["PASSWORD", "PASSPHRASE", "SECRET", "TOKEN", "KEY", "FACTOR"]
        return environment.filter { name, _ in
            let upper = name.uppercased()
            guard upper.hasPrefix("ATOAUTH_") else { return upper != "PGPASSWORD" }
            return !secretVariables.contains(upper) && !secretWords.contains { upper.contains($0) }
        }
    }
}

/// A started browser opener, watched for an unsuccessful exit: a command that is not found (status 127), cannot run
/// (126), fails, or is killed.
///
/// An opener that exits with 0 or keeps running (a browser that stays in the foreground) has not failed.
final class BrowserProcess: Sendable {
    private let name: String
    /// Kept so the process is watched for as long as this object lives.
    private let process: Process
    private let outcome: AsyncStream<String?>
    private let report: AsyncStream<String?>.Continuation

    init(name: String, process: Process) {
        self.name = name
        self.process = process
        (outcome, report) = AsyncStream.makeStream(of: String?.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Records the exit; called from the process's termination handler.
    func exited(status: Int32, reason: Process.TerminationReason) {
        let failure: String? =
            switch (reason, status) {
            case (.uncaughtSignal, _): "\(name) was stopped by signal \(status)"
            case (_, 0): nil
            case (_, 127): "\(name) names a command that was not found"
            case (_, 126): "\(name) names a command that cannot be run"
            default: "\(name) exited with status \(status)"
            }
        report.yield(failure)
        report.finish()
    }

    /// Waits for the opener to fail and returns why; returns `nil` when it exited successfully or the waiting task
    /// was cancelled, and waits as long as the opener runs.
    func failure() async -> String? {
        for await failure in outcome { return failure }
        return nil
    }
}
