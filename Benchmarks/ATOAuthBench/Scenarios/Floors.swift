import CSodium
import Foundation
import Keystore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The least work each keystore operation cannot avoid, done with bare calls, as the baselines of its ratios.
enum Floors {
    /// What sealing adds to a value: a 24-byte XChaCha20 nonce and a 16-byte Poly1305 tag.
    static let sealOverhead = 40

    /// One Argon2id derivation of a 32-byte key with `parameters`, through libsodium directly.
    static func argon2id(_ parameters: KeyDerivationParameters) throws {
        guard sodium_init() >= 0 else { throw BenchError("libsodium could not be initialized") }
        var key = [UInt8](repeating: 0, count: 32)
        let salt = [UInt8](repeating: 7, count: Int(crypto_pwhash_argon2id_SALTBYTES))
        let password = Array("correct horse battery staple".utf8).map { CChar(bitPattern: $0) }
        let status = crypto_pwhash(
            &key,
            UInt64(key.count),
            password,
            UInt64(password.count),
            salt,
            parameters.operationsLimit,
            parameters.memoryLimit,
            crypto_pwhash_argon2id_ALG_ARGON2ID13
        )
        guard status == 0 else { throw BenchError("Argon2id failed") }
    }

    /// Writes `count` bytes durably and atomically: a temporary file, written, fsynced, renamed over the target,
    /// then the directory fsynced.
    static func durableWrite(count: Int, directory: String) throws {
        let bytes = [UInt8](repeating: 0x5A, count: count)
        let temporary = directory + "/floor.tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BenchError("cannot create \(temporary)") }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == count, synced == 0, rename(temporary, directory + "/floor.entry") == 0 else {
            throw BenchError("the durable write failed")
        }
        let folder = open(directory, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard folder >= 0 else { throw BenchError("cannot open \(directory)") }
        defer { close(folder) }
        guard fsync(folder) == 0 else { throw BenchError("cannot sync \(directory)") }
    }
}
