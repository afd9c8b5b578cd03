#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
public import Foundation
public import Logging

extension EncryptedFileKeystore {
    /// The environment variable holding the store passphrase.
    public static let passphraseVariable = "ATOAUTH_PASSPHRASE"

    /// The environment variable holding the path of the key file.
    public static let keyFileVariable = "ATOAUTH_KEY_FILE"

    /// Opens the store in `directory` with the key source the environment selects, as the CLI does.
    ///
    /// The key source is, in order: the passphrase in `ATOAUTH_PASSPHRASE` when it is set and not empty; the key
    /// file at `ATOAUTH_KEY_FILE`; `$XDG_CONFIG_HOME/atoauth/store.key`; `$HOME/.config/atoauth/store.key`.
    ///
    /// - Parameters:
    ///   - directory: The store directory.
    ///   - environment: The process environment, usually `ProcessInfo.processInfo.environment`.
    ///   - logger: Receives warnings about repaired permissions.
    /// - Returns: The opened store.
    /// - Throws: A ``KeystoreError`` saying why the store cannot be opened.
    public static func open(
        directory: URL,
        environment: [String: String],
        logger: Logger
    ) throws -> EncryptedFileKeystore {
        try EncryptedFileKeystore(directory: directory, keySource: keySource(environment: environment), logger: logger)
    }

    /// Returns the key source `environment` selects; see ``open(directory:environment:logger:)``.
    ///
    /// - Throws: ``KeystoreError/missingHome`` when no variable locates a key file.
    public static func keySource(environment: [String: String]) throws -> KeySource {
        if let passphrase = environment[passphraseVariable], !passphrase.isEmpty {
            return .passphrase(passphrase)
        }
        return .keyFile(try defaultKeyFile(environment: environment))
    }

    /// Returns the key file location `environment` selects, ignoring the passphrase.
    ///
    /// - Throws: ``KeystoreError/missingHome`` when no variable locates a key file.
    public static func defaultKeyFile(environment: [String: String]) throws -> URL {
        if let path = environment[keyFileVariable], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // The XDG Base Directory specification says to ignore a relative XDG_CONFIG_HOME.
        if let configHome = environment["XDG_CONFIG_HOME"], configHome.hasPrefix("/") {
            return URL(fileURLWithPath: configHome).appending(components: "atoauth", "store.key")
        }
        if let home = environment["HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appending(components: ".config", "atoauth", "store.key")
        }
        throw KeystoreError.missingHomeDirectory()
    }
}
#endif
