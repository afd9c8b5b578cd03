#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
import CSodium

/// Argon2id cost parameters used to derive a store key from a passphrase.
///
/// They apply when a store is created; an existing store always uses the parameters recorded in its
/// metadata file.
public struct KeyDerivationParameters: Hashable, Sendable {
    /// The number of passes over memory (Argon2id `opslimit`).
    public var operationsLimit: UInt64

    /// The memory used, in bytes (Argon2id `memlimit`).
    public var memoryLimit: Int

    /// Creates parameters from an operations limit and a memory limit in bytes.
    public init(operationsLimit: UInt64, memoryLimit: Int) {
        self.operationsLimit = operationsLimit
        self.memoryLimit = memoryLimit
    }

    /// libsodium's interactive limits (2 passes, 64 MiB), the default for new stores.
    public static var interactive: KeyDerivationParameters {
        KeyDerivationParameters(
            operationsLimit: UInt64(crypto_pwhash_argon2id_opslimit_interactive()),
            memoryLimit: crypto_pwhash_argon2id_memlimit_interactive()
        )
    }

    /// libsodium's minimum limits (1 pass, 8 KiB): fast and weak, meant for tests only.
    public static var minimum: KeyDerivationParameters {
        KeyDerivationParameters(
            operationsLimit: UInt64(crypto_pwhash_argon2id_opslimit_min()),
            memoryLimit: crypto_pwhash_argon2id_memlimit_min()
        )
    }

    /// The largest memory limit accepted, libsodium's sensitive limit (1 GiB), so a damaged metadata file
    /// cannot make atoauth allocate without bound.
    static var maximumMemoryLimit: Int {
        crypto_pwhash_argon2id_memlimit_sensitive()
    }

    /// The largest operations limit accepted, so a damaged metadata file cannot make unlocking hang.
    static let maximumOperationsLimit: UInt64 = 64

    /// Throws ``KeystoreError/invalidParameters`` unless libsodium accepts the parameters.
    func validate() throws {
        let minimum = Self.minimum
        guard (minimum.operationsLimit...Self.maximumOperationsLimit).contains(operationsLimit) else {
            throw KeystoreError.invalidParameters(
                "operations limit \(operationsLimit) is outside \(minimum.operationsLimit)...\(Self.maximumOperationsLimit)"
            )
        }
        guard (minimum.memoryLimit...Self.maximumMemoryLimit).contains(memoryLimit) else {
            throw KeystoreError.invalidParameters(
                "memory limit \(memoryLimit) bytes is outside \(minimum.memoryLimit)...\(Self.maximumMemoryLimit)"
            )
        }
    }
}
#endif
