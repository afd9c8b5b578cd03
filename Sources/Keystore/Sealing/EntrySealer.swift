#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
package import Foundation
package import Logging

/// Seals values for a store that keeps them outside the file store, such as a database shared by several machines.
///
/// It uses what ``EncryptedFileKeystore`` uses: the same key sources (a passphrase through Argon2id, or a key file),
/// the same metadata with its key check, and the same entry format, XChaCha20-Poly1305 with the entry's name bound
/// as associated data, so a value copied to another entry fails authentication. Only the metadata and sealed values
/// leave it; the key never does.
package struct EntrySealer: Sendable {
    private let key: SecretKey

    /// Names the store in messages, such as `the PostgreSQL store atoauth on db.example:5432`; never a secret.
    package let location: String

    /// The largest sealed value a store reads, as the file store reads no larger file: far above any session or key.
    package static let maximumSealedBytes = SecureFile.maximumSize

    private init(key: SecretKey, location: String) {
        self.key = key
        self.location = location
    }

    /// Unlocks a store whose metadata (the contents `keystore.json` would have) was read from `location`.
    ///
    /// - Throws: ``KeystoreError`` when the key source does not match the metadata (a wrong passphrase, a missing or
    ///   wrong key file) or the metadata cannot be read.
    package init(metadata: Data, source: EncryptedFileKeystore.KeySource, location: String) throws {
        try Sodium.initialize()
        let description = "the key check of \(location)"
        let decoded = try StoreMetadata.decode(metadata, path: description)
        let key = try StoreUnlocker.unlockExisting(
            metadata: decoded,
            source: source,
            directory: location,
            metadataPath: description
        )
        self.init(key: key, location: location)
    }

    /// Makes the key of a new store at `location` and the metadata to keep beside its values.
    ///
    /// In key-file mode the key file is read, or created when it does not exist yet.
    package static func create(
        source: EncryptedFileKeystore.KeySource,
        location: String,
        logger: Logger
    ) throws -> (sealer: EntrySealer, metadata: Data) {
        try Sodium.initialize()
        if case .passphrase(let passphrase, let parameters) = source.kind {
            guard !passphrase.isEmpty else { throw KeystoreError.invalidPassphrase }
            try parameters.validate()
        }
        let (key, metadata) = try StoreUnlocker.newKey(source: source, logger: logger)
        return (EntrySealer(key: key, location: location), try metadata.encoded())
    }

    /// The error for a store at `location` that holds values but lost `keyCheck`, the metadata of its key.
    package static func keyCheckMissing(location: String, keyCheck: String) -> KeystoreError {
        .missingMetadata(directory: location, metadata: keyCheck)
    }

    /// Checks that `name` is a valid entry or lock name: non-empty, at most 200 UTF-8 bytes.
    package static func validate(name: String) throws {
        _ = try EntryName(name)
    }

    /// Returns `value` sealed for the entry `name`.
    package func seal(_ value: Data, as name: String) throws -> Data {
        try EntryCodec.encode(value, name: try EntryName(name), key: key)
    }

    /// Returns the value of the entry `name` from its sealed form.
    ///
    /// - Throws: ``KeystoreError/corrupted`` when `sealed` was modified, truncated or sealed for another entry or
    ///   key; ``KeystoreError/unsupportedVersion`` when a newer atoauth wrote it.
    /// The error for the value of `name` that is `size` bytes, more than ``maximumSealedBytes``; it was not read.
    package func tooLarge(_ name: String, size: Int) -> KeystoreError {
        .corruptedValue(
            entry: name,
            location: location,
            reason: "it is \(size) bytes, more than the \(Self.maximumSealedBytes >> 20) MiB any entry may be, so it "
                + "was not read"
        )
    }

    package func open(_ sealed: Data, as name: String) throws -> Data {
        let entry = try EntryName(name)
        return try EntryCodec.decode(sealed, name: entry, path: location, key: key) { reason in
            .corruptedValue(entry: name, location: location, reason: reason)
        }
    }
}
#endif
