#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
import CSodium
import Foundation

/// The libsodium primitives the store uses: XChaCha20-Poly1305-IETF, Argon2id, SHA-256 and random bytes.
enum Sodium {
    /// The size of an AEAD key.
    static let keyBytes = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)
    /// The size of an AEAD nonce.
    static let nonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    /// The size of an AEAD authentication tag.
    static let tagBytes = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)
    /// The size of an Argon2id salt.
    static let saltBytes = Int(crypto_pwhash_argon2id_SALTBYTES)

    /// The result of the one call to `sodium_init()`; Swift runs a static initializer once, thread-safely.
    private static let initialization: Int32 = sodium_init()

    /// Initializes libsodium on first use and throws if it cannot be.
    static func initialize() throws {
        guard initialization >= 0 else {
            throw KeystoreError.cryptoFailure("libsodium could not be initialized")
        }
    }

    /// Returns `count` cryptographically random bytes.
    static func randomBytes(_ count: Int) throws -> [UInt8] {
        try initialize()
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    /// Encrypts `plaintext` under `key` with a fresh random nonce, returning `nonce ‖ ciphertext ‖ tag`.
    ///
    /// The copy of the plaintext the cipher reads is kept in ``GuardedMemory`` and zeroed when done.
    static func seal(_ plaintext: Data, additionalData: [UInt8], key: SecretKey) throws -> [UInt8] {
        let nonce = try randomBytes(nonceBytes)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + tagBytes)
        var length: UInt64 = 0
        let message = try GuardedMemory(copying: plaintext)
        let status = key.withUnsafeBytes { keyBytes in
            message.withUnsafePointer { messageBytes in
                crypto_aead_xchacha20poly1305_ietf_encrypt(
                    &ciphertext,
                    &length,
                    messageBytes,
                    UInt64(message.count),
                    additionalData,
                    UInt64(additionalData.count),
                    nil,
                    nonce,
                    keyBytes
                )
            }
        }
        guard status == 0 else {
            throw KeystoreError.cryptoFailure("Encryption failed")
        }
        return nonce + ciphertext.prefix(Int(length))
    }

    /// Decrypts `nonce ‖ ciphertext ‖ tag` under `key`, or returns `nil` when authentication fails.
    ///
    /// The cipher writes the plaintext into ``GuardedMemory``, zeroed once the returned copy is made.
    static func open(_ sealed: some Collection<UInt8>, additionalData: [UInt8], key: SecretKey) throws -> Data? {
        try initialize()
        let sealed = Array(sealed)
        guard sealed.count >= nonceBytes + tagBytes else { return nil }
        let nonce = Array(sealed[..<nonceBytes])
        let ciphertext = Array(sealed[nonceBytes...])
        let plaintext = try GuardedMemory(count: ciphertext.count - tagBytes)
        var length: UInt64 = 0
        let status = key.withUnsafeBytes { keyBytes in
            plaintext.withUnsafeMutablePointer { plaintextBytes in
                crypto_aead_xchacha20poly1305_ietf_decrypt(
                    plaintextBytes,
                    &length,
                    nil,
                    ciphertext,
                    UInt64(ciphertext.count),
                    additionalData,
                    UInt64(additionalData.count),
                    nonce,
                    keyBytes
                )
            }
        }
        guard status == 0 else { return nil }
        return plaintext.withUnsafePointer { Data(bytes: $0, count: Int(length)) }
    }

    /// Derives a store key from `passphrase` with Argon2id; the copy of the passphrase it makes is kept in
    /// ``GuardedMemory`` and zeroed when done.
    static func deriveKey(
        passphrase: String,
        salt: [UInt8],
        parameters: KeyDerivationParameters
    ) throws -> SecretKey {
        try initialize()
        try parameters.validate()
        guard salt.count == saltBytes else {
            throw KeystoreError.invalidParameters("the salt has \(salt.count) bytes instead of \(saltBytes)")
        }
        let password = try GuardedMemory(copying: passphrase.utf8)
        return try SecretKey { output in
            let status = password.withUnsafePointer { passwordBytes in
                passwordBytes.withMemoryRebound(to: CChar.self, capacity: max(password.count, 1)) {
                    passwordCharacters in
                    crypto_pwhash(
                        output,
                        UInt64(SecretKey.byteCount),
                        passwordCharacters,
                        UInt64(password.count),
                        salt,
                        parameters.operationsLimit,
                        parameters.memoryLimit,
                        crypto_pwhash_argon2id_ALG_ARGON2ID13
                    )
                }
            }
            guard status == 0 else {
                throw KeystoreError.cryptoFailure("Argon2id key derivation ran out of memory")
            }
        }
    }

    /// Returns the lowercase hexadecimal SHA-256 digest of `bytes`.
    static func sha256Hex(_ bytes: [UInt8]) throws -> String {
        try initialize()
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        return hex(digest)
    }

    /// Returns `bytes` as lowercase hexadecimal.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }
}
#endif
