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
            status: CLIFailure.usage,
            message: "HOME is not set, so the keystore's key file cannot be found. Set HOME or \(keyFileVariable)."
        )
    }
}
