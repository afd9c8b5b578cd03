public import Failures

/// An error thrown by a ``Keystore``.
///
/// Errors are compared by ``code`` only, so `error == .corrupted` matches a corrupted entry whatever its path.
/// The ``description`` says what happened, where, and what to do. It never contains a key, a passphrase
/// or a stored value.
public struct KeystoreError: CategorizedError, Hashable {
    /// Which failure a ``KeystoreError`` is, whatever its details: compared with `==`, as in
    /// `error.code == .invalidName`.
    ///
    /// New codes may come in a later version: a `switch` over them needs a `default` case.
    @nonexhaustive
    public enum Code: String, NamedFailureCode {
        /// An entry or lock name is empty or longer than 200 UTF-8 bytes.
        case invalidName
        /// A passphrase was given but is empty.
        case invalidPassphrase
        /// Key derivation parameters are outside the range libsodium accepts.
        case invalidParameters
        /// The passphrase does not unlock the store.
        case wrongPassphrase
        /// The store is protected by a passphrase but none was given.
        case passphraseRequired
        /// A passphrase was given for a store that is protected by a key file.
        case unexpectedPassphrase
        /// The key file of an existing store is missing.
        case missingKeyFile
        /// The key file does not hold exactly 32 bytes.
        case invalidKeyFile
        /// The key file is readable or writable by group or others.
        case insecureKeyFile
        /// The key file does not unlock the store.
        case wrongKeyFile
        /// An entry file is damaged, truncated, or was moved from another entry.
        case corrupted
        /// A file was written by a newer version of atoauth.
        case unsupportedVersion
        /// The store holds entries but its metadata file is missing.
        case missingMetadata
        /// The store's metadata file cannot be read.
        case corruptedMetadata
        /// A store file or key file is a symbolic link, a FIFO, a device or a directory instead of a regular file.
        case notRegularFile
        /// The store directory belongs to another user.
        case foreignOwner
        /// A lock could not be taken before the timeout.
        case lockTimeout
        /// A file system operation failed.
        case fileSystem
        /// libsodium could not be initialized or failed to derive a key.
        case cryptoFailure
        /// A Keychain call returned an error status.
        case keychainFailure
    }

    /// Which failure this is, whatever its details: `error.code == .invalidName`.
    public let code: Code

    /// The file or directory the error concerns, when there is one.
    public let path: String?

    /// Says what happened and what to do about it.
    public let description: String

    private init(_ code: Code, path: String? = nil, _ description: String) {
        self.code = code
        self.path = path
        self.description = description
    }

    /// Returns whether two errors have the same code, ignoring their path and description.
    public static func == (lhs: KeystoreError, rhs: KeystoreError) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code of the error.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// The store could not be opened, read or written.
    public var category: FailureCategory { .failed }

    /// What to do about the store's secret (a passphrase, a key file); nothing particular for other failures.
    public var remedy: Remedy {
        switch code {
        case .invalidPassphrase: .giveUsablePassphrase
        case .wrongPassphrase: .checkPassphrase
        case .passphraseRequired: .givePassphrase
        case .unexpectedPassphrase: .useKeyFile
        case .missingKeyFile, .invalidKeyFile, .wrongKeyFile: .findKeyFile
        default: .none
        }
    }

    /// An entry or lock name is empty or longer than 200 UTF-8 bytes.
    public static let invalidName = KeystoreError(.invalidName, "The entry name is invalid.")
    /// A passphrase was given but is empty.
    public static let invalidPassphrase = KeystoreError(
        .invalidPassphrase,
        "The passphrase is empty."
    )
    /// Key derivation parameters are outside the range libsodium accepts.
    public static let invalidParameters = KeystoreError(.invalidParameters, "The Argon2id parameters are invalid.")
    /// The passphrase does not unlock the store.
    public static let wrongPassphrase = KeystoreError(.wrongPassphrase, "The passphrase is wrong.")
    /// The store is protected by a passphrase but none was given.
    public static let passphraseRequired = KeystoreError(.passphraseRequired, "The keystore needs a passphrase.")
    /// A passphrase was given for a store that is protected by a key file.
    public static let unexpectedPassphrase = KeystoreError(.unexpectedPassphrase, "The keystore uses a key file.")
    /// The key file of an existing store is missing.
    public static let missingKeyFile = KeystoreError(.missingKeyFile, "The key file is missing.")
    /// The key file does not hold exactly 32 bytes.
    public static let invalidKeyFile = KeystoreError(.invalidKeyFile, "The key file has the wrong size.")
    /// The key file is readable or writable by group or others.
    public static let insecureKeyFile = KeystoreError(.insecureKeyFile, "The key file's permissions are too open.")
    /// The key file does not unlock the store.
    public static let wrongKeyFile = KeystoreError(.wrongKeyFile, "The key file does not unlock the keystore.")
    /// An entry file is damaged, truncated, or was moved from another entry.
    public static let corrupted = KeystoreError(.corrupted, "A keystore entry is corrupted.")
    /// A file was written by a newer version of atoauth.
    public static let unsupportedVersion = KeystoreError(.unsupportedVersion, "The keystore format is too new.")
    /// The store holds entries but its metadata file is missing.
    public static let missingMetadata = KeystoreError(.missingMetadata, "The keystore metadata is missing.")
    /// The store's metadata file cannot be read.
    public static let corruptedMetadata = KeystoreError(.corruptedMetadata, "The keystore metadata is corrupted.")
    /// A store file or key file is a symbolic link, a FIFO, a device or a directory instead of a regular file.
    public static let notRegularFile = KeystoreError(.notRegularFile, "A keystore file is not a regular file.")
    /// The store directory belongs to another user.
    public static let foreignOwner = KeystoreError(.foreignOwner, "The keystore directory belongs to another user.")
    /// A lock could not be taken before the timeout.
    public static let lockTimeout = KeystoreError(.lockTimeout, "Timed out waiting for a keystore lock.")
    /// A file system operation failed.
    public static let fileSystem = KeystoreError(.fileSystem, "A keystore file operation failed.")
    /// libsodium could not be initialized or failed to derive a key.
    public static let cryptoFailure = KeystoreError(.cryptoFailure, "A cryptographic operation failed.")
    /// A Keychain call returned an error status.
    public static let keychainFailure = KeystoreError(.keychainFailure, "A Keychain operation failed.")
}

extension KeystoreError {
    static func invalidName(_ reason: String) -> KeystoreError {
        KeystoreError(
            .invalidName,
            "Invalid keystore name: \(reason). Use a non-empty name of at most 200 UTF-8 bytes."
        )
    }

    static func invalidParameters(_ reason: String) -> KeystoreError {
        KeystoreError(.invalidParameters, "Invalid Argon2id parameters: \(reason).")
    }

    static func fileSystem(_ operation: String, path: String, errno code: Int32) -> KeystoreError {
        KeystoreError(
            .fileSystem,
            path: path,
            "Could not \(operation) \(path): \(POSIXErrorText.describe(code)). "
                + "Check that the path exists, that it is yours, and that the disk is not full."
        )
    }

    static func cryptoFailure(_ reason: String) -> KeystoreError {
        KeystoreError(.cryptoFailure, "\(reason). Check that libsodium is installed and that memory is available.")
    }

    static func lockTimeout(name: String, path: String, timeout: Duration) -> KeystoreError {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        return KeystoreError(
            .lockTimeout,
            path: path,
            "Timed out after \(seconds) s waiting for the keystore lock '\(name)' (\(path)). "
                + "Another atoauth process may be stuck holding it; wait for it to finish or stop it, then retry."
        )
    }

    static func keychainFailure(_ operation: String, status: Int32) -> KeystoreError {
        KeystoreError(
            .keychainFailure,
            "The Keychain refused to \(operation) (OSStatus \(status)). Unlock the Keychain and retry."
        )
    }

    static func make(_ prototype: KeystoreError, path: String?, _ description: String) -> KeystoreError {
        KeystoreError(prototype.code, path: path, description)
    }
}

extension KeystoreError {
    /// Where the failure lies: the caller's input for an entry name that cannot be stored; otherwise this
    /// machine: the store, its key or passphrase, its files.
    public var origin: FailureOrigin {
        switch code {
        case .invalidName: .input
        case .invalidPassphrase, .invalidParameters, .wrongPassphrase, .passphraseRequired, .unexpectedPassphrase,
            .missingKeyFile, .invalidKeyFile, .insecureKeyFile, .wrongKeyFile, .corrupted, .unsupportedVersion,
            .missingMetadata, .corruptedMetadata, .notRegularFile, .foreignOwner, .lockTimeout, .fileSystem,
            .cryptoFailure, .keychainFailure:
            .machine
        }
    }
}
