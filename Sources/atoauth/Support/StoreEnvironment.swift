import ArgumentParser
import Foundation
import Keystore
import Logging

/// Where `atoauth` finds the keystore's secret: the CLI's policy over ``EncryptedFileKeystore``'s key sources.
///
/// The key source is, in order: the passphrase in `ATOAUTH_PASSPHRASE` when it is set and not empty; the key file
/// at `ATOAUTH_KEY_FILE`; `$XDG_CONFIG_HOME/atoauth/store.key`; `$HOME/.config/atoauth/store.key`.
enum StoreEnvironment {
    /// The environment variable holding the store passphrase.
    static let passphraseVariable = "ATOAUTH_PASSPHRASE"
    /// The environment variable holding the path of the key file.
    static let keyFileVariable = "ATOAUTH_KEY_FILE"

    /// Opens the store in `directory` with the key source `environment` selects.
    static func open(directory: URL, environment: [String: String], logger: Logger) throws -> EncryptedFileKeystore {
        try EncryptedFileKeystore(directory: directory, keySource: keySource(environment: environment), logger: logger)
    }

    /// Opens the store as ``open(directory:environment:logger:)`` does, asking on a terminal what is missing.
    ///
    /// When the store is protected by a passphrase that `ATOAUTH_PASSPHRASE` does not give and standard input is a
    /// terminal, it asks for it there without echo (three tries). Scripts keep the variable: without a terminal
    /// nothing is asked, and a missing passphrase is an error that says to set it. (A new store's key is chosen
    /// before it exists: ``FirstUseKey``.)
    static func openAsking(
        directory: URL,
        environment: [String: String],
        logger: Logger
    ) async throws -> EncryptedFileKeystore {
        do {
            return try open(directory: directory, environment: environment, logger: logger)
        } catch let error as KeystoreError
            where error == .passphraseRequired && isatty(STDIN_FILENO) == 1
            && environment[passphraseVariable].nonEmpty == nil
        {
            let input = SecretInput()
            let tries = 3
            // Echo stays off from the first prompt to the last, so a try typed while one is checked is not shown.
            return try await TerminalEcho.keepingHidden {
                for attempt in 1...tries {
                    guard
                        let passphrase = try await input.next(
                            "passphrase",
                            prompt: "Passphrase of the store at \(directory.path)"
                        ),
                        !passphrase.isEmpty
                    else { throw error }
                    do {
                        return try EncryptedFileKeystore(
                            directory: directory,
                            keySource: .passphrase(passphrase),
                            logger: logger
                        )
                    } catch let wrong as KeystoreError where wrong == .wrongPassphrase {
                        guard attempt < tries else {
                            // Typed, not read from the environment: the remedy is not to check a variable.
                            throw CLIFailure(
                                status: ExitCode(wrong.category),
                                message: "The passphrase typed does not open the store at \(directory.path) "
                                    + "(\(tries) tries). Nothing was changed; run the command again to retry."
                            )
                        }
                        Output.message("That passphrase does not open the store; try again.")
                    }
                }
                throw error
            }
        }
    }

    /// The key source `environment` selects.
    static func keySource(environment: [String: String]) throws -> EncryptedFileKeystore.KeySource {
        if let passphrase = environment[passphraseVariable], !passphrase.isEmpty {
            return .passphrase(passphrase)
        }
        return .keyFile(try defaultKeyFile(environment: environment))
    }

    /// The key file location `environment` selects, ignoring the passphrase.
    static func defaultKeyFile(environment: [String: String]) throws -> URL {
        if let path = environment[keyFileVariable], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // The XDG Base Directory Specification says to ignore a relative XDG_CONFIG_HOME.
        if let configHome = environment["XDG_CONFIG_HOME"], configHome.hasPrefix("/") {
            return URL(fileURLWithPath: configHome).appending(components: "atoauth", "store.key")
        }
        if let home = environment["HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appending(components: ".config", "atoauth", "store.key")
        }
        throw CLIFailure(
            status: .usage,
            message: "HOME is not set, so the keystore's key file cannot be found. Set HOME or \(keyFileVariable)."
        )
    }
}
