import ArgumentParser
import CProcessGuard
import Dispatch
import Foundation
import Logging

/// Runs the command line, maps every error to the contract's exit status, and cancels cleanly on Ctrl-C.
@main
enum Main {
    static func main() async {
        // The process may hold a store key, DPoP keys and tokens: no core file, and no other process of the user
        // attaching to it or reading its memory.
        _ = cprocessguard_protect_memory()
        // SwiftNIO ignores SIGPIPE once it starts; ignored from the first line, every command meets a closed pipe the
        // same way: StandardStream sees EPIPE and exits 141.
        signal(SIGPIPE, SIG_IGN)
        HelpLayout.normalizeColumns()
        let arguments = CommandSuggestion.joiningNegativeNumbers(Array(CommandLine.arguments.dropFirst()))
        let json = arguments.contains("--json")
        if arguments == [ManualPage.flag] {
            Output.bytes(Data(ManualPage.roff().utf8))
            exit(0)
        }
        let task = Task {
            let command: any ParsableCommand
            let normalized = GlobalOptionPlacement.normalize(arguments)
            do {
                // The async form runs the async shell completions (account names) too.
                command = try await ATOAuthCommand.asyncParseAsRoot(normalized)
            } catch {
                let suggestion = CommandSuggestion.suggestion(for: arguments)
                if suggestion == nil,
                    let unknown = CommandSuggestion.unknownOption(in: normalized, parseError: error, json: json)
                {
                    throw unknown
                }
                throw ParseFailure(underlying: error, suggestion: suggestion)
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var command = command
                try command.run()
            }
        }
        let interrupt = cancelOnInterrupt(task, json: json)
        let result = await task.result
        interrupt.cancel()
        if task.isCancelled, case .failure = result {
            // Only Ctrl-C cancels the task: whatever the command then ended with (a request cut off, a prompt left
            // unanswered) is the interrupt's doing, so every command exits 130.
            report(CLIFailure(CancellationError()), json: json)
        }
        switch result {
        case .success: exit(0)
        case .failure(let error as ParseFailure):
            exitForParseError(error.underlying, suggestion: error.suggestion, json: json)
        case .failure(let error as CLIFailure):
            report(error, json: json)
        case .failure(let error as ExitCode):
            exit(error.rawValue)
        case .failure(let error)
        where [.success, .validationFailure].contains(ATOAuthCommand.exitCode(for: error)):
            exitForParseError(error, json: json)
        case .failure(let error):
            report(CLIFailure(error), json: json)
        }
    }

    /// Prints a failure on stderr, as one JSON object with `--json`, and exits with its status.
    private static func report(_ failure: CLIFailure, json: Bool) -> Never {
        if json {
            Output.message(failure.json)
        } else {
            Output.message(failure.message)
        }
        exit(failure.status)
    }

    /// Help and version go to stdout with status 0; any other parse or validation error is a usage error (2).
    ///
    /// Both are laid out for the terminal's width (``HelpLayout``).
    private static func exitForParseError(_ error: any Error, suggestion: String? = nil, json: Bool) -> Never {
        if let suggestion {
            // The usage of whatever command the mistyped word was read under would only mislead.
            report(CLIFailure(status: CLIFailure.usage, message: suggestion), json: json)
        }
        let code = ATOAuthCommand.exitCode(for: error)
        let width = HelpLayout.width()
        let message = HelpLayout.fitted(ATOAuthCommand.fullMessage(for: error, columns: width), width: width)
        if code == .success {
            Output.line(message)
            exit(0)
        }
        if json {
            report(CLIFailure(status: CLIFailure.usage, message: ATOAuthCommand.message(for: error)), json: true)
        }
        Output.message(message)
        exit(CLIFailure.usage)
    }

    /// The first Ctrl-C cancels the running command (which cleans up) and says so, as a JSON log line with `--json`;
    /// a second one exits at once.
    private static func cancelOnInterrupt(_ task: Task<Void, any Error>, json: Bool) -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        let count = InterruptCount()
        source.setEventHandler {
            if count.next() > 1 { exit(CLIFailure.cancelled) }
            Output.message(
                json ? LineLogHandler.line(level: .notice, message: "Cancelling…", json: true) : "\nCancelling…"
            )
            task.cancel()
        }
        source.resume()
        return source
    }
}

/// An error from parsing the command line, told apart from the command's own errors.
private struct ParseFailure: Error {
    var underlying: any Error
    /// What to say instead of the parser's error: the subcommand the user probably meant, when a word was mistyped or
    /// came from another tool (``CommandSuggestion``).
    var suggestion: String?
}

/// Counts interrupts; only touched from the main queue.
private final class InterruptCount: @unchecked Sendable {
    // Safe: the signal source delivers every event on the main queue, one at a time.
    private var value = 0

    func next() -> Int {
        value += 1
        return value
    }
}
