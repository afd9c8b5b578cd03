#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
public import Foundation

extension EncryptedFileKeystore {
    /// Whether `directory` holds a store: its `keystore.json`, or entries without it, which opening then refuses by
    /// naming the missing file, rather than taking the store for one not created yet.
    package static func holdsStore(_ directory: URL) -> Bool {
        let layout = StoreLayout(directory: directory.path)
        if FileManager.default.fileExists(atPath: layout.metadata) { return true }
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: layout.directory) else { return false }
        return files.contains(where: StoreLayout.isEntryFile)
    }

    /// Says where an ``EncryptedFileKeystore`` gets its key: a passphrase or a key file.
    ///
    /// Its description, debug description and mirror never show the passphrase. Swift strings cannot be wiped,
    /// so the passphrase stays in memory while the key source exists; the store itself keeps only the derived key.
    public struct KeySource: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        enum Kind: Sendable {
            case passphrase(String, KeyDerivationParameters)
            case keyFile(String)
        }

        let kind: Kind

        /// Derives the key from `passphrase` with Argon2id.
        ///
        /// - Parameters:
        ///   - passphrase: A non-empty passphrase.
        ///   - parameters: The Argon2id limits used when the store is created; an existing store keeps its own.
        /// - Returns: The key source.
        public static func passphrase(
            _ passphrase: String,
            parameters: KeyDerivationParameters = .interactive
        ) -> KeySource {
            KeySource(kind: .passphrase(passphrase, parameters))
        }

        /// Reads the key from a 32-byte key file, which is created (`0600`, in a `0700` directory) only when both
        /// it and the store are new.
        public static func keyFile(_ url: URL) -> KeySource {
            KeySource(kind: .keyFile(url.path))
        }

        /// Names the kind of source, with the key file's path but never the passphrase.
        public var description: String {
            switch kind {
            case .passphrase: "passphrase (redacted)"
            case .keyFile(let path): "key file \(path)"
            }
        }

        /// Same as ``description``.
        public var debugDescription: String { description }

        /// A mirror that shows only ``description``, so `dump` does not print the passphrase.
        public var customMirror: Mirror {
            Mirror(self, children: ["description": description])
        }
    }
}
#endif
