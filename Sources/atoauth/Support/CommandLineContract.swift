import ArgumentParser
import CProcessGuard
import Dispatch
import Foundation
import Logging
import WireFormat

/// What docs/cli.md asks of a run beyond argument-parser's own `main()`, in one place.
///
/// It adds:
/// - global options before the command as well as after it (``GlobalOptionPlacement``);
/// - the contract's exit statuses (``ExitCode/signInNeeded`` and the others) and, with `--json`, every error as one
///   JSON object on stderr (``CLIFailure``);
/// - "did you mean" for a mistyped command or another tool's option (``CommandSuggestion``), and help laid out for
///   the terminal (``HelpLayout``);
/// - Ctrl-C cancelling the command, which cleans up and exits 130; a second one exits at once.
struct CommandLineContract: Sendable {
    /// The arguments after the program's name, as given.
    let given: [String]

    /// Whether errors are reported as JSON.
    var json: Bool { given.contains("--json") }

    /// Readies the process for a command that may hold a store key, DPoP keys and tokens.
    init(arguments: [String]) {
        // No core file, and no other process of the user attaching to this one or reading its memory.
        _ = cprocessguard_protect_memory()
        // SwiftNIO ignores SIGPIPE once it starts; ignored from the first line, every command meets a closed pipe the
        // same way: StandardStream sees EPIPE and exits 141.
        signal(SIGPIPE, SIG_IGN)
        HelpLayout.normalizeColumns()
        given = arguments
    }

    /// Parses the command line, runs the command and exits with the contract's status.
    func run() async -> Never {
        let task = Task { try await parseAndRun() }
        let interrupt = cancelOnInterrupt(task)
        let result = await task.result
        interrupt.cancel()
        switch result {
        case .success: exit(0)
        case .failure(let error) where task.isCancelled:
            // Only Ctrl-C cancels the task: whatever the command then ended with (a request cut off, a prompt left
            // unanswered) is the interrupt's doing, told as the command tells a cancellation when it has more to say.
            let told = (error as? CLIFailure).flatMap { $0.status == .cancelled ? $0 : nil }
            report(told ?? CLIFailure(CancellationError()))
        case .failure(let error as ParseFailure):
            reportParseError(error.underlying, suggestion: error.suggestion)
        case .failure(let error as CLIFailure):
            report(error)
        case .failure(let error as ExitCode):
            exit(error.rawValue)
        case .failure(let error)
        where [.success, .validationFailure].contains(ATOAuthCommand.exitCode(for: error)):
            reportParseError(error)
        case .failure(let error):
            report(CLIFailure(error))
        }
    }

    private func parseAndRun() async throws {
        let arguments = GlobalOptionPlacement.normalize(given)
        if let unknown = CommandSuggestion.unknownHelpTopic(in: arguments) { throw unknown }
        var command: any ParsableCommand
        do {
            // The async form runs the async shell completions (account names) too.
            command = try await ATOAuthCommand.asyncParseAsRoot(arguments)
        } catch {
            let suggestion =
                CommandSuggestion.suggestion(for: given)
                ?? CommandSuggestion.noSuchCommand(in: given, parseError: error)
            if suggestion == nil,
                let unknown = CommandSuggestion.unknownOption(in: arguments, parseError: error, json: json)
            {
                throw unknown
            }
            throw ParseFailure(underlying: error, suggestion: suggestion)
        }
        if var asyncCommand = command as? any AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            try command.run()
        }
    }

    /// Prints a failure on stderr, as one JSON object with `--json`, and exits with its status.
    private func report(_ failure: CLIFailure) -> Never {
        Output.message(json ? failure.json : failure.message)
        exit(failure.status.rawValue)
    }

    /// Help and version go to stdout with status 0; any other parse or validation error is a usage error (2).
    private func reportParseError(_ error: any Error, suggestion: String? = nil) -> Never {
        if let suggestion {
            // The usage of whatever command the mistyped word was read under would only mislead.
            report(CLIFailure(status: .usage, message: suggestion))
        }
        let width = HelpLayout.width()
        let message = HelpLayout.fitted(fullMessage(for: error, columns: width), width: width)
        if ATOAuthCommand.exitCode(for: error) == .success {
            Output.line(message)
            exit(0)
        }
        if json { report(CLIFailure(status: .usage, message: ATOAuthCommand.message(for: error))) }
        // The parser repeats a refused value as given: no control character of it reaches the terminal.
        Output.message(TerminalText.printable(message))
        exit(ExitCode.usage.rawValue)
    }

    /// The parser's message for `error`, with the usage of the command the arguments name.
    ///
    /// argument-parser names a command below one with options of its own (`gateway token list`) by its bare name in
    /// the usage of a validation error (`Usage: list …`, `See 'list --help'`); that usage is made again here from the
    /// command's place in the tree, as for an unknown option
    /// (``CommandSuggestion/unknownOption(in:parseError:json:)``).
    private func fullMessage(for error: any Error, columns: Int) -> String {
        let message = ATOAuthCommand.fullMessage(for: error, columns: columns)
        guard ATOAuthCommand.exitCode(for: error) == .validationFailure, !message.contains("Usage: atoauth") else {
            return message
        }
        let words = GlobalOptionPlacement.normalize(given).filter { !$0.hasPrefix("-") }
        let (command, path) = CommandSuggestion.command(named: words)
        return CommandSuggestion.usageError(ATOAuthCommand.message(for: error), command: command, path: path)
    }

    /// The first Ctrl-C cancels the running command (which cleans up) and says so, as a JSON log line with `--json`;
    /// a second one exits at once.
    private func cancelOnInterrupt(_ task: Task<Void, any Error>) -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        let count = InterruptCount()
        let json = json
        source.setEventHandler {
            if count.next() > 1 { exit(ExitCode.cancelled.rawValue) }
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
