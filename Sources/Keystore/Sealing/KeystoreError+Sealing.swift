/// Messages for values sealed by ``EntrySealer`` and kept outside the file store.
extension KeystoreError {
    static func corruptedValue(entry: String, location: String, reason: String) -> KeystoreError {
        make(
            .corrupted,
            path: nil,
            "The keystore entry '\(entry)' in \(location) is corrupted: \(reason). "
                + "It was left untouched; restore it from a backup or delete the entry."
        )
    }
}
