import Foundation

/// The first use of atoauth on a terminal, when no store and no key file exist yet: the person chooses how the new
/// store's key is kept, a passphrase (typed twice) or a key file (an empty line, the default for scripts).
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
            !FileManager.default.fileExists(atPath: directory.appendingPathComponent("keystore.json").path),
            let keyFile = try? StoreEnvironment.defaultKeyFile(environment: environment),
            !FileManager.default.fileExists(atPath: keyFile.path)
        else { return nil }
        return keyFile
    }

    /// Asks for the new store's passphrase, twice, without echo; `nil` when the person chose the key file.
    ///
    /// - Throws: `CLIFailure` (usage) when the two differ ``tries`` times or input ends; nothing is created then.
    static func chosenPassphrase(directory: URL, keyFile: URL) async throws -> String? {
        Output.message(
            "atoauth keeps your accounts in an encrypted store at \(directory.path). Choose a passphrase for it, or "
                + "press Enter to keep its key in the file \(keyFile.path) instead. A passphrase is asked for when a "
                + "command opens the store on a terminal; scripts set \(StoreEnvironment.passphraseVariable)."
        )
        let input = SecretInput()
        // Echo stays off between the prompts, so a passphrase typed ahead of the next prompt is not shown.
        return try await TerminalEcho.keepingHidden {
            for attempt in 1...tries {
                guard let first = await input.next(prompt: "New passphrase for the store"), !first.isEmpty else {
                    return nil
                }
                guard let second = await input.next(prompt: "The same passphrase again") else { break }
                if first == second { return first }
                if attempt < tries { Output.message("The two passphrases differ; choose one again.") }
            }
            throw CLIFailure(
                status: CLIFailure.usage,
                message: "The passphrases typed did not match, so no store was created. Run the command again, or "
                    + "set \(StoreEnvironment.passphraseVariable)."
            )
        }
    }
}
