import Foundation
import Keystore

/// The encrypted file keystore: open + read in key-file and passphrase mode, and write + fsync, each next to its
/// floor measured in the same run (one Argon2id derivation; a bare durable atomic write of the same size).
enum KeystoreCost {
    /// What the scenario found; times are medians of wall time, in seconds.
    struct Result: Sendable {
        /// Opening a key-file store and reading one session entry.
        var keyFileOpenRead: Double
        /// Opening a passphrase store and reading one session entry.
        var passphraseOpenRead: Double
        /// One Argon2id derivation with the same parameters, called directly.
        var argon2id: Double
        /// The Argon2id parameters of the passphrase store.
        var parameters: KeyDerivationParameters
        /// Writing one session entry (encrypt, write, fsync, rename, fsync the directory).
        var write: Double
        /// The same bytes written durably with bare system calls.
        var writeFloor: Double
        /// Median of the rounds' passphrase-open ÷ Argon2id ratios.
        var passphraseRatio: Double
        /// Median of the rounds' write ÷ floor ratios.
        var writeRatio: Double
    }

    /// The entry every round reads and writes: a session-sized value.
    static let entryName = "session/did:plc:ewvi7nxzyoun6zhxrhs64oiz"

    /// Runs the measurements in a temporary directory, which it removes.
    static func run(openRounds: Int, passphraseRounds: Int, writeRounds: Int) throws -> Result {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("atoauth-bench-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let value = Data((0..<900).map { UInt8(truncatingIfNeeded: $0 &* 131) })

        let keyFileStore = root.appendingPathComponent("keyfile-store")
        let keyFile = EncryptedFileKeystore.KeySource.keyFile(root.appendingPathComponent("config/store.key"))
        try EncryptedFileKeystore(directory: keyFileStore, keySource: keyFile).save(value, as: entryName)
        let keyFileTimes = try (0..<openRounds).map { _ in try openAndRead(keyFileStore, keyFile) }

        let parameters = KeyDerivationParameters.interactive
        let passphraseStore = root.appendingPathComponent("passphrase-store")
        let passphrase = EncryptedFileKeystore.KeySource.passphrase(
            "correct horse battery staple",
            parameters: parameters
        )
        try EncryptedFileKeystore(directory: passphraseStore, keySource: passphrase).save(value, as: entryName)
        var passphraseTimes: [Double] = []
        var argonTimes: [Double] = []
        for _ in 0..<passphraseRounds {
            passphraseTimes.append(try openAndRead(passphraseStore, passphrase))
            argonTimes.append(try Clocks.measure(Clocks.wall) { try Floors.argon2id(parameters) }.seconds)
        }

        let store = try EncryptedFileKeystore(directory: keyFileStore, keySource: keyFile)
        let floorDirectory = root.appendingPathComponent("floor").path
        try FileManager.default.createDirectory(atPath: floorDirectory, withIntermediateDirectories: true)
        var writeTimes: [Double] = []
        var floorTimes: [Double] = []
        for _ in 0..<writeRounds {
            writeTimes.append(try Clocks.measure(Clocks.wall) { try store.save(value, as: entryName) }.seconds)
            floorTimes.append(
                try Clocks.measure(Clocks.wall) {
                    try Floors.durableWrite(count: value.count + Floors.sealOverhead, directory: floorDirectory)
                }
                .seconds
            )
        }
        return Result(
            keyFileOpenRead: Samples.median(keyFileTimes),
            passphraseOpenRead: Samples.median(passphraseTimes),
            argon2id: Samples.median(argonTimes),
            parameters: parameters,
            write: Samples.median(writeTimes),
            writeFloor: Samples.median(floorTimes),
            passphraseRatio: Samples.median(zip(passphraseTimes, argonTimes).map { $0 / $1 }),
            writeRatio: Samples.median(zip(writeTimes, floorTimes).map { $0 / $1 })
        )
    }

    private static func openAndRead(_ directory: URL, _ source: EncryptedFileKeystore.KeySource) throws -> Double {
        try Clocks.measure(Clocks.wall) {
            let store = try EncryptedFileKeystore(directory: directory, keySource: source)
            guard let data = try store.load(entryName), data.count == 900 else {
                throw BenchError("the keystore did not return the entry")
            }
        }
        .seconds
    }
}
