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
            return try unlockExisting(
                metadata: metadata,
                source: source,
                directory: layout.directory,
                metadataPath: layout.metadata
            )
        }
        let files = try SecureDirectory.contents(of: layout.directory)
        guard !files.contains(where: StoreLayout.isEntryFile) else {
            throw KeystoreError.missingMetadata(directory: layout.directory, metadata: layout.metadata)
        }
        return try create(layout, source: source, logger: logger)
    }

    /// Returns the key of a store described by `metadata`, checked against its key check; `directory` and
    /// `metadataPath` name the store and its metadata in errors.
    static func unlockExisting(
        metadata: StoreMetadata,
        source: EncryptedFileKeystore.KeySource,
        directory: String,
        metadataPath: String
    ) throws -> SecretKey {
        switch (metadata.mode, source.kind) {
        case (.passphrase, .keyFile):
            throw KeystoreError.passphraseRequired(directory: directory)
        case (.keyFile, .passphrase):
            throw KeystoreError.unexpectedPassphrase(directory: directory)
        case (.passphrase, .passphrase(let passphrase, _)):
            guard let salt = metadata.salt, let parameters = metadata.parameters else {
                throw KeystoreError.corruptedMetadata(
                    metadataPath,
                    reason: "the salt or Argon2id limits are missing"
                )
            }
            let key = try Sodium.deriveKey(passphrase: passphrase, salt: [UInt8](salt), parameters: parameters)
            guard try metadata.accepts(key) else {
                throw KeystoreError.wrongPassphrase(directory: directory)
            }
            return key
        case (.keyFile, .keyFile(let path)):
            guard let key = try KeyFile.read(path) else {
                throw KeystoreError.missingKeyFile(path, directory: directory)
            }
            guard try metadata.accepts(key) else {
                throw KeystoreError.wrongKeyFile(path, directory: directory)
            }
            return key
        }
    }

    private static func create(
        _ layout: StoreLayout,
        source: EncryptedFileKeystore.KeySource,
        logger: Logger
    ) throws -> SecretKey {
        let (key, metadata) = try newKey(source: source, logger: logger)
        try SecureFile.writeAtomically(
            try metadata.encoded(),
            to: layout.metadata,
            temporaryPath: try layout.temporaryFile(),
            directory: layout.directory
        )
        logger.info("Created a new keystore", metadata: ["directory": "\(layout.directory)"])
        return key
    }

    /// A key for a new store and the metadata that recognizes it: derived from the passphrase with a new salt, or
    /// read from the key file, which is created when it does not exist.
    static func newKey(
        source: EncryptedFileKeystore.KeySource,
        logger: Logger
    ) throws -> (key: SecretKey, metadata: StoreMetadata) {
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
        return (key, metadata)
    }
}
#endif
