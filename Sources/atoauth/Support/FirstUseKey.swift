import Foundation

/// A command that stores something, and so creates the store when there is none yet: a sign-in, a new client key.
///
/// Only these ask, on first use on a terminal, how the new store's key is kept (``FirstUseKey``); every other
/// command sees a missing store as an empty one and creates nothing (``UncreatedFileStore``).
protocol StoreCreatingCommand {}

extension AddCommand: StoreCreatingCommand {}
extension UpgradeCommand: StoreCreatingCommand {}
extension ClientKeygenCommand: StoreCreatingCommand {}

/// The first use of atoauth on a terminal, when no store and no key file exist yet and a command is about to store
/// something: the person chooses how the new store's key is kept, a passphrase (typed twice) or a key file (an empty
/// line, the default for scripts).
enum FirstUseKey {
    /// How many times the two passphrases may differ before nothing is created.
    static let tries = 3

    /// The key file to offer beside a passphrase when opening `directory` creates a new store, else `nil`.
    ///
    /// That is when standard input is a terminal, neither `ATOAUTH_PASSPHRASE` nor `ATOAUTH_KEY_FILE` chose a key,
    /// and neither the store's metadata nor the default key file exists. An empty answer keeps the key in that file.
    static func keyFileToOffer(directory: URL, environment: [String: String]) -> URL? {
        guard isatty(STDIN_FILENO) == 1,
            environment[StoreEnvironment.passphraseVariable].nonEmpty == nil,
            environment[StoreEnvironment.keyFileVariable].nonEmpty == nil,
            !UncreatedFileStore.exists(in: directory),
            let keyFile = try? StoreEnvironment.defaultKeyFile(environment: environment),
            !FileManager.default.fileExists(atPath: keyFile.path)
        else { return nil }
        return keyFile
    }

    /// Asks for the new store's passphrase, twice, without echo; `nil` when the person chose the key file.
    ///
    /// - Throws: `CLIFailure` (usage) when the two differ ``tries`` times, input ends or a line is too long,
    ///   `CancellationError` on Ctrl-C; nothing is created then, not even a directory.
    static func chosenPassphrase(directory: URL, keyFile: URL) async throws -> String? {
        Output.message(
            "atoauth keeps your accounts in an encrypted store at \(directory.path), made to keep what this "
                + "command stores. Choose a passphrase for it, or press Enter to keep its key in the file "
                + "\(keyFile.path) instead. With a passphrase, every command that opens the store on a terminal asks "
                + "for it (scripts set \(StoreEnvironment.passphraseVariable)); a key file is read without asking."
        )
        let input = SecretInput()
        // Echo stays off between the prompts, so a passphrase typed ahead of the next prompt is not shown.
        return try await TerminalEcho.keepingHidden {
            for attempt in 1...tries {
                let first = try await input.next("passphrase", prompt: "New passphrase for the store")
                // Ctrl-C ends the read with no line, as the end of input does: not a choice of the key file.
                try Task.checkCancellation()
                guard let first, !first.isEmpty else { return nil }
                let second = try await input.next("passphrase", prompt: "The same passphrase again")
                try Task.checkCancellation()
                guard let second else { break }
                if first == second { return first }
                if attempt < tries { Output.message("The two passphrases differ; choose one again.") }
            }
            throw CLIFailure(
                status: .usage,
                message: "The passphrases typed did not match, so no store was created. Run the command again, or "
                    + "set \(StoreEnvironment.passphraseVariable)."
            )
        }
    }
}
