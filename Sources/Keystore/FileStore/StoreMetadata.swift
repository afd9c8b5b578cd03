#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
import Foundation

/// The contents of `keystore.json`: how the store key is obtained, and a key check to recognize it.
///
/// The key check is the encryption of a fixed text under the store key. Opening it tells a wrong passphrase or key
/// file apart from a damaged entry without touching any entry.
struct StoreMetadata: Codable, Equatable, Sendable {
    /// Where the store key comes from.
    enum Mode: String, Codable, Sendable {
        case passphrase
        case keyFile
    }

    /// The metadata format version this code writes and the highest it reads.
    static let currentVersion = 1

    private static let keyCheckText = Data("atoauth keystore key check".utf8)
    private static let keyCheckAssociatedData = Array("atoauth-keystore/key-check/v1".utf8)

    var formatVersion: Int
    var mode: Mode
    var salt: Data?
    var opsLimit: UInt64?
    var memLimit: Int?
    var keyCheck: Data

    /// The Argon2id parameters recorded for a passphrase store.
    var parameters: KeyDerivationParameters? {
        guard let opsLimit, let memLimit else { return nil }
        return KeyDerivationParameters(operationsLimit: opsLimit, memoryLimit: memLimit)
    }

    /// Creates metadata for a new store whose key is `key`.
    init(mode: Mode, salt: [UInt8]?, parameters: KeyDerivationParameters?, key: SecretKey) throws {
        self.formatVersion = Self.currentVersion
        self.mode = mode
        self.salt = salt.map { Data($0) }
        self.opsLimit = parameters?.operationsLimit
        self.memLimit = parameters?.memoryLimit
        self.keyCheck = Data(try Sodium.seal(Self.keyCheckText, additionalData: Self.keyCheckAssociatedData, key: key))
    }

    /// Returns whether `key` is the key the metadata was created with.
    func accepts(_ key: SecretKey) throws -> Bool {
        try Sodium.open(keyCheck, additionalData: Self.keyCheckAssociatedData, key: key) == Self.keyCheckText
    }

    /// Parses `data` read from `path`, checking the version before anything else so that a newer format is
    /// reported as such rather than as damage.
    static func decode(_ data: Data, path: String) throws -> StoreMetadata {
        struct VersionProbe: Decodable {
            var formatVersion: Int
        }
        let decoder = JSONDecoder()
        guard let probe = try? decoder.decode(VersionProbe.self, from: data) else {
            throw KeystoreError.corruptedMetadata(path, reason: "it is not a JSON object with a formatVersion")
        }
        guard probe.formatVersion <= currentVersion else {
            throw KeystoreError.unsupportedVersion(path: path, found: probe.formatVersion, supported: currentVersion)
        }
        let metadata: StoreMetadata
        do {
            metadata = try decoder.decode(StoreMetadata.self, from: data)
        } catch {
            throw KeystoreError.corruptedMetadata(path, reason: "a field is missing or has the wrong type")
        }
        guard metadata.formatVersion >= 1 else {
            throw KeystoreError.corruptedMetadata(path, reason: "its formatVersion is \(metadata.formatVersion)")
        }
        // A key check of another length is damage, which no key would open: not a wrong passphrase or key file.
        let keyCheckLength = Sodium.nonceBytes + keyCheckText.count + Sodium.tagBytes
        guard metadata.keyCheck.count == keyCheckLength else {
            throw KeystoreError.corruptedMetadata(
                path,
                reason: "its keyCheck is \(metadata.keyCheck.count) bytes, not \(keyCheckLength)"
            )
        }
        if metadata.mode == .passphrase {
            guard metadata.salt?.count == Sodium.saltBytes, let parameters = metadata.parameters else {
                throw KeystoreError.corruptedMetadata(path, reason: "the salt or Argon2id limits are missing")
            }
            do {
                try parameters.validate()
            } catch {
                throw KeystoreError.corruptedMetadata(path, reason: "the Argon2id limits are out of range")
            }
        }
        return metadata
    }

    /// Returns the JSON written to `keystore.json`.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
#endif
