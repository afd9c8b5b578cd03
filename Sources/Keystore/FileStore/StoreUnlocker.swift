#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
import Foundation
import Logging

/// Obtains the key of a store directory from its metadata and a key source, creating the store when it is new.
///
/// It never creates a key for a store that has metadata or entries, since a new key could not read them.
/// Callers hold the store's open lock, so two processes cannot create the same store at once.
enum StoreUnlocker {
    /// Returns the store key, creating the metadata (and the key file, in key-file mode) for a new store.
    static func unlock(
        _ layout: StoreLayout,
        source: EncryptedFileKeystore.KeySource,
        logger: Logger
    ) throws -> SecretKey {
        if let data = try SecureFile.read(layout.metadata, repairingWith: logger) {
            let metadata = try StoreMetadata.decode(data, path: layout.metadata)
            return try unlockExisting(layout, metadata: metadata, source: source)
        }
        let files = try SecureDirectory.contents(of: layout.directory)
        guard !files.contains(where: StoreLayout.isEntryFile) else {
            throw KeystoreError.missingMetadata(directory: layout.directory, metadata: layout.metadata)
        }
        return try create(layout, source: source, logger: logger)
    }

    private static func unlockExisting(
        _ layout: StoreLayout,
        metadata: StoreMetadata,
        source: EncryptedFileKeystore.KeySource
    ) throws -> SecretKey {
        switch (metadata.mode, source.kind) {
        case (.passphrase, .keyFile):
            throw KeystoreError.passphraseRequired(directory: layout.directory)
        case (.keyFile, .passphrase):
            throw KeystoreError.unexpectedPassphrase(directory: layout.directory)
        case (.passphrase, .passphrase(let passphrase, _)):
            guard let salt = metadata.salt, let parameters = metadata.parameters else {
                throw KeystoreError.corruptedMetadata(
                    layout.metadata,
                    reason: "the salt or Argon2id limits are missing"
                )
            }
            let key = try Sodium.deriveKey(passphrase: passphrase, salt: [UInt8](salt), parameters: parameters)
            guard try metadata.accepts(key) else {
                throw KeystoreError.wrongPassphrase(directory: layout.directory)
            }
            return key
        case (.keyFile, .keyFile(let path)):
            guard let key = try KeyFile.read(path) else {
                throw KeystoreError.missingKeyFile(path, directory: layout.directory)
            }
            guard try metadata.accepts(key) else {
                throw KeystoreError.wrongKeyFile(path, directory: layout.directory)
            }
            return key
        }
    }

    private static func create(
        _ layout: StoreLayout,
        source: EncryptedFileKeystore.KeySource,
        logger: Logger
    ) throws -> SecretKey {
        let key: SecretKey
        let metadata: StoreMetadata
        switch source.kind {
        case .passphrase(let passphrase, let parameters):
            let salt = try Sodium.randomBytes(Sodium.saltBytes)
            key = try Sodium.deriveKey(passphrase: passphrase, salt: salt, parameters: parameters)
            metadata = try StoreMetadata(mode: .passphrase, salt: salt, parameters: parameters, key: key)
        case .keyFile(let path):
            if let existing = try KeyFile.read(path) {
                key = existing
            } else {
                key = try KeyFile.create(path)
                logger.notice("Created a new keystore key file", metadata: ["path": "\(path)"])
            }
            metadata = try StoreMetadata(mode: .keyFile, salt: nil, parameters: nil, key: key)
        }
        try SecureFile.writeAtomically(
            try metadata.encoded(),
            to: layout.metadata,
            temporaryPath: try layout.temporaryFile(),
            directory: layout.directory
        )
        logger.info("Created a new keystore", metadata: ["directory": "\(layout.directory)"])
        return key
    }
}
#endif
