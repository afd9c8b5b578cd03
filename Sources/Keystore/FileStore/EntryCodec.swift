#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
import Foundation

/// Encodes and decodes entry files.
///
/// An entry file is `magic ‖ version ‖ nonce ‖ ciphertext ‖ tag`: the four bytes `ATKS`, one format version byte,
/// a 24-byte random nonce, and the XChaCha20-Poly1305-IETF encryption of the value. The associated data is
/// `magic ‖ version ‖ UTF-8 name`, so a file copied or renamed to another entry fails authentication.
enum EntryCodec {
    /// The first bytes of every entry file.
    static let magic: [UInt8] = Array("ATKS".utf8)

    /// The entry format version this code writes and the highest it reads.
    static let version: UInt8 = 1

    private static let headerBytes = magic.count + 1

    /// Returns the contents of the file storing `value` under `name`.
    static func encode(_ value: Data, name: EntryName, key: SecretKey) throws -> Data {
        let sealed = try Sodium.seal(value, additionalData: associatedData(name, version: version), key: key)
        return Data(magic + [version] + sealed)
    }

    /// Returns the value stored in `file`, throwing ``KeystoreError/corrupted`` or
    /// ``KeystoreError/unsupportedVersion`` when it cannot be read.
    ///
    /// `corruption`, when given, makes the error for the reason the value cannot be read; by default it names the file.
    static func decode(
        _ file: Data,
        name: EntryName,
        path: String,
        key: SecretKey,
        corruption: ((String) -> KeystoreError)? = nil
    ) throws -> Data {
        let bytes = [UInt8](file)
        func corrupted(_ reason: String) -> KeystoreError {
            corruption?(reason) ?? .corrupted(entry: name.value, path: path, reason: reason)
        }
        guard bytes.count >= headerBytes else {
            throw corrupted("the file is only \(bytes.count) bytes long")
        }
        guard bytes.starts(with: magic) else {
            throw corrupted("it does not start with the keystore entry marker")
        }
        let fileVersion = bytes[magic.count]
        guard fileVersion <= version else {
            throw KeystoreError.unsupportedVersion(path: path, found: Int(fileVersion), supported: Int(version))
        }
        guard fileVersion >= 1 else {
            throw corrupted("its format version is 0")
        }
        guard bytes.count >= headerBytes + Sodium.nonceBytes + Sodium.tagBytes else {
            throw corrupted("the file is truncated (\(bytes.count) bytes)")
        }
        let sealed = bytes[headerBytes...]
        guard let value = try Sodium.open(sealed, additionalData: associatedData(name, version: fileVersion), key: key)
        else {
            throw corrupted("authentication failed, so it was modified, truncated, or copied from another entry")
        }
        return value
    }

    private static func associatedData(_ name: EntryName, version: UInt8) -> [UInt8] {
        magic + [version] + Array(name.value.utf8)
    }
}
#endif
