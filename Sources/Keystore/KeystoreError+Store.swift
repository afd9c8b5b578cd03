/// Messages for the states an encrypted file store can be found in.
extension KeystoreError {
    static func wrongPassphrase(directory: String) -> KeystoreError {
        make(
            .wrongPassphrase,
            path: directory,
            "The passphrase does not unlock the keystore at \(directory); nothing was changed."
        )
    }

    static func passphraseRequired(directory: String) -> KeystoreError {
        make(
            .passphraseRequired,
            path: directory,
            "The keystore at \(directory) is protected by a passphrase, but none was given."
        )
    }

    static func unexpectedPassphrase(directory: String) -> KeystoreError {
        make(
            .unexpectedPassphrase,
            path: directory,
            "The keystore at \(directory) is protected by a key file, not a passphrase."
        )
    }

    static func missingKeyFile(_ keyFile: String, directory: String) -> KeystoreError {
        make(
            .missingKeyFile,
            path: keyFile,
            "The keystore at \(directory) is protected by a key file, but \(keyFile) does not exist. "
                + "Restore it from a backup or give its path. "
                + "No new key was created, because it could not read the existing entries."
        )
    }

    static func invalidKeyFile(_ keyFile: String, size: Int) -> KeystoreError {
        make(
            .invalidKeyFile,
            path: keyFile,
            "The key file \(keyFile) holds \(size) bytes instead of 32: it is not a keystore key file."
        )
    }

    static func insecureKeyFile(_ keyFile: String, mode: UInt32) -> KeystoreError {
        make(
            .insecureKeyFile,
            path: keyFile,
            "The key file \(keyFile) has mode \(FileMode.octal(mode)), so other users may have read or replaced it. "
                + "Check that nobody did, then run `chmod 600 \(keyFile)`."
        )
    }

    static func wrongKeyFile(_ keyFile: String, directory: String) -> KeystoreError {
        make(
            .wrongKeyFile,
            path: keyFile,
            "The key file \(keyFile) does not unlock the keystore at \(directory); it was created with another one."
        )
    }

    static func corrupted(entry: String, path: String, reason: String) -> KeystoreError {
        make(
            .corrupted,
            path: path,
            "The keystore entry '\(entry)' in \(path) is corrupted: \(reason). "
                + "The file was left untouched; restore it from a backup or delete the entry."
        )
    }

    static func unsupportedVersion(path: String, found: Int, supported: Int) -> KeystoreError {
        make(
            .unsupportedVersion,
            path: path,
            "\(path) uses keystore format version \(found), but this atoauth reads only up to version "
                + "\(supported). Upgrade atoauth."
        )
    }

    static func missingMetadata(directory: String, metadata: String) -> KeystoreError {
        make(
            .missingMetadata,
            path: metadata,
            "The keystore at \(directory) holds entries but \(metadata) is missing, so they cannot be decrypted. "
                + "Restore it from a backup; nothing was changed."
        )
    }

    static func corruptedMetadata(_ metadata: String, reason: String) -> KeystoreError {
        make(
            .corruptedMetadata,
            path: metadata,
            "The keystore metadata \(metadata) is unreadable: \(reason). Restore it from a backup; nothing was changed."
        )
    }
}
