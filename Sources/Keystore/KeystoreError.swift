public import Failures

/// An error thrown by a ``Keystore``.
///
/// Errors are compared by kind only, so `error == .corrupted` matches a corrupted entry whatever its path.
/// The ``description`` says what happened, where, and what to do. It never contains a key, a passphrase
/// or a stored value.
public struct KeystoreError: CategorizedError, Hashable {
    private enum Kind: String, Hashable, Sendable {
        case invalidName
        case invalidPassphrase
        case invalidParameters
        case wrongPassphrase
        case passphraseRequired
        case unexpectedPassphrase
        case missingKeyFile
        case invalidKeyFile
        case insecureKeyFile
        case wrongKeyFile
        case corrupted
        case unsupportedVersion
        case missingMetadata
        case corruptedMetadata
        case notRegularFile
        case foreignOwner
        case lockTimeout
        case fileSystem
        case cryptoFailure
        case keychainFailure
    }

    private let kind: Kind

    /// The file or directory the error concerns, when there is one.
    public let path: String?

    /// Says what happened and what to do about it.
    public let description: String

    private init(_ kind: Kind, path: String? = nil, _ description: String) {
        self.kind = kind
        self.path = path
        self.description = description
    }

    /// Returns whether two errors are of the same kind, ignoring their path and description.
    public static func == (lhs: KeystoreError, rhs: KeystoreError) -> Bool {
        lhs.kind == rhs.kind
    }

    /// Hashes the kind of the error.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
    }

    /// The store could not be opened, read or written.
    public var category: FailureCategory { .failed }

    /// What to do about the store's secret (a passphrase, a key file); nothing particular for other failures.
    public var remedy: Remedy {
        switch kind {
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
        KeystoreError(prototype.kind, path: path, description)
    }
}

extension KeystoreError {
    /// Which failure this is, whatever its details: `error.code == .invalidName`.
    public var code: FailureCode<KeystoreError> { FailureCode(kind.rawValue) }

    /// Where the failure lies: the caller's input for an entry name that cannot be stored; otherwise this
    /// machine: the store, its key or passphrase, its files.
    public var origin: FailureOrigin {
        switch kind {
        case .invalidName: .input
        case .invalidPassphrase, .invalidParameters, .wrongPassphrase, .passphraseRequired, .unexpectedPassphrase,
            .missingKeyFile, .invalidKeyFile, .insecureKeyFile, .wrongKeyFile, .corrupted, .unsupportedVersion,
            .missingMetadata, .corruptedMetadata, .notRegularFile, .foreignOwner, .lockTimeout, .fileSystem,
            .cryptoFailure, .keychainFailure:
            .machine
        }
    }
}

extension FailureCode where Failure == KeystoreError {
    /// The code of `KeystoreError.invalidName`.
    public static let invalidName = Self("invalidName")
    /// The code of `KeystoreError.invalidPassphrase`.
    public static let invalidPassphrase = Self("invalidPassphrase")
    /// The code of `KeystoreError.invalidParameters`.
    public static let invalidParameters = Self("invalidParameters")
    /// The code of `KeystoreError.wrongPassphrase`.
    public static let wrongPassphrase = Self("wrongPassphrase")
    /// The code of `KeystoreError.passphraseRequired`.
    public static let passphraseRequired = Self("passphraseRequired")
    /// The code of `KeystoreError.unexpectedPassphrase`.
    public static let unexpectedPassphrase = Self("unexpectedPassphrase")
    /// The code of `KeystoreError.missingKeyFile`.
    public static let missingKeyFile = Self("missingKeyFile")
    /// The code of `KeystoreError.invalidKeyFile`.
    public static let invalidKeyFile = Self("invalidKeyFile")
    /// The code of `KeystoreError.insecureKeyFile`.
    public static let insecureKeyFile = Self("insecureKeyFile")
    /// The code of `KeystoreError.wrongKeyFile`.
    public static let wrongKeyFile = Self("wrongKeyFile")
    /// The code of `KeystoreError.corrupted`.
    public static let corrupted = Self("corrupted")
    /// The code of `KeystoreError.unsupportedVersion`.
    public static let unsupportedVersion = Self("unsupportedVersion")
    /// The code of `KeystoreError.missingMetadata`.
    public static let missingMetadata = Self("missingMetadata")
    /// The code of `KeystoreError.corruptedMetadata`.
    public static let corruptedMetadata = Self("corruptedMetadata")
    /// The code of `KeystoreError.notRegularFile`.
    public static let notRegularFile = Self("notRegularFile")
    /// The code of `KeystoreError.foreignOwner`.
    public static let foreignOwner = Self("foreignOwner")
    /// The code of `KeystoreError.lockTimeout`.
    public static let lockTimeout = Self("lockTimeout")
    /// The code of `KeystoreError.fileSystem`.
    public static let fileSystem = Self("fileSystem")
    /// The code of `KeystoreError.cryptoFailure`.
    public static let cryptoFailure = Self("cryptoFailure")
    /// The code of `KeystoreError.keychainFailure`.
    public static let keychainFailure = Self("keychainFailure")
}
