import ArgumentParser
import Dispatch
import Foundation

/// Runs the command line, maps every error to the contract's exit status, and cancels cleanly on Ctrl-C.
@main
enum Main {
    static func main() async {
        let arguments = CommandSuggestion.joiningNegativeNumbers(Array(CommandLine.arguments.dropFirst()))
        let task = Task {
            let command: any ParsableCommand
            do {
                command = try ATOAuthCommand.parseAsRoot(GlobalOptionPlacement.normalize(arguments))
            } catch {
                throw ParseFailure(underlying: error, suggestion: CommandSuggestion.suggestion(for: arguments))
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var command = command
                try command.run()
            }
        }
        let interrupt = cancelOnInterrupt(task)
        let result = await task.result
        interrupt.cancel()
        switch result {
        case .success: exit(0)
        case .failure(let error as ParseFailure):
            exitForParseError(error.underlying, suggestion: error.suggestion)
        case .failure(let error as CLIFailure):
            Output.message(error.message)
            exit(error.status)
        case .failure(let error as ExitCode):
            exit(error.rawValue)
        case .failure(let error)
        where [.success, .validationFailure].contains(ATOAuthCommand.exitCode(for: error)):
            exitForParseError(error)
        case .failure(let error):
            let failure = CLIFailure(error)
            Output.message(failure.message)
            exit(failure.status)
        }
    }

    /// Help and version go to stdout with status 0; any other parse or validation error is a usage error (2).
    private static func exitForParseError(_ error: any Error, suggestion: String? = nil) -> Never {
        let code = ATOAuthCommand.exitCode(for: error)
        let message = ATOAuthCommand.fullMessage(for: error)
        if code == .success {
            Output.line(message)
            exit(0)
        }
        Output.message(message)
        if let suggestion { Output.message("Did you mean `\(suggestion)`?") }
        exit(CLIFailure.usage)
    }

    /// The first Ctrl-C cancels the running command (which cleans up); a second one exits at once.
    private static func cancelOnInterrupt(_ task: Task<Void, any Error>) -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        let count = InterruptCount()
        source.setEventHandler {
            if count.next() > 1 { exit(CLIFailure.cancelled) }
            Output.message("\nCancelling…")
            task.cancel()
        }
        source.resume()
        return source
    }
}

/// An error from parsing the command line, told apart from the command's own errors.
private struct ParseFailure: Error {
    var underlying: any Error
    /// The subcommand the user probably meant, when a word was mistyped.
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
