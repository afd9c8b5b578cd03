import WireFormat

/// A validated entry or lock name and the file name stem that stands for it on disk.
///
/// Names are non-empty and at most ``maximumByteCount`` UTF-8 bytes. The stem percent-encodes every byte outside
/// `[A-Za-z0-9._-]` with uppercase hex digits, so it is reversible and safe on any file system. A stem that would
/// be longer than ``maximumStemByteCount`` (a long name made mostly of escaped bytes) is replaced by `~` and the
/// SHA-256 of the name; the file store then keeps the name in a side file. `~` is always escaped, so the two
/// forms never collide.
struct EntryName: Hashable, Sendable {
    /// The largest accepted name, in UTF-8 bytes.
    static let maximumByteCount = 200

    /// The longest percent-encoded stem used as is, leaving room for a suffix within the usual 255-byte limit.
    static let maximumStemByteCount = 200

    /// The prefix of stems made from a hash of the name.
    static let hashedPrefix = "~"

    /// The name as the caller spelled it.
    let value: String

    /// The file name stem standing for the name.
    let stem: String

    /// Whether ``stem`` is a hash, so the name cannot be recovered from it.
    var isHashed: Bool { stem.hasPrefix(Self.hashedPrefix) }

    /// Validates `name` and computes its stem.
    init(_ name: String) throws {
        let byteCount = name.utf8.count
        guard byteCount > 0 else {
            throw KeystoreError.invalidName("the name is empty")
        }
        guard byteCount <= Self.maximumByteCount else {
            throw KeystoreError.invalidName("the name has \(byteCount) UTF-8 bytes")
        }
        let encoded = Self.percentEncode(name)
        self.value = name
        if encoded.utf8.count <= Self.maximumStemByteCount {
            self.stem = encoded
        } else {
            #if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
            self.stem = Self.hashedPrefix + (try Sodium.sha256Hex(Array(name.utf8)))
            #else
            // Without libsodium there is no file store, the only user of stems.
            self.stem = Self.hashedPrefix
            #endif
        }
    }

    /// Whether `stem` has the form of a hashed stem: ``hashedPrefix`` and 64 lowercase hexadecimal digits.
    static func isHashedStem(_ stem: String) -> Bool {
        let digits = stem.utf8.dropFirst(hashedPrefix.utf8.count)
        return stem.hasPrefix(hashedPrefix) && digits.count == 64
            && digits.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }

    /// Returns the name a percent-encoded stem stands for, or `nil` when `stem` is hashed, malformed, or not the
    /// canonical encoding of a valid name (such as a file someone else put in the directory).
    static func decode(stem: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = stem.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(PercentEncoding.hexValue),
                    let low = iterator.next().flatMap(PercentEncoding.hexValue)
                else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        guard let name = String(validating: bytes, as: UTF8.self),
            let entryName = try? EntryName(name),
            entryName.stem == stem
        else { return nil }
        return name
    }

    /// The stem's encoding: every byte outside `[A-Za-z0-9._-]` escaped, `~` too, so that it never begins a name's
    /// stem as it begins a hashed one.
    private static func percentEncode(_ name: String) -> String {
        PercentEncoding.encode(name) { PercentEncoding.isUnreserved($0) && $0 != UInt8(ascii: "~") }
    }
}
