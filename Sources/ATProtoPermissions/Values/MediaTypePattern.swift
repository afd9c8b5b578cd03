/// A MIME type or a glob over MIME types, as the `accept` parameter of `blob` takes: `image/png`, `image/*` or
/// `*/*` (atproto.com/specs/permission, Blob).
///
/// MIME types are case-insensitive (RFC 2045 §5.1), so the pattern is kept in lowercase. Type and subtype names
/// follow RFC 6838 §4.2; a wildcard stands only for a whole subtype, or for both parts as `*/*`.
public struct MediaTypePattern: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The pattern in lowercase, such as `image/*`.
    public let rawValue: String

    /// `*/*`: every media type.
    public static let any = MediaTypePattern(checked: "*/*")

    /// Reads a pattern; `nil` when it is not `type/subtype`, `type/*` or `*/*`.
    public init?(rawValue: String) {
        let lowercased = rawValue.lowercased()
        guard lowercased == "*/*" || Self.isTypeAndSubtype(lowercased) else { return nil }
        self.rawValue = lowercased
    }

    private init(checked: String) { rawValue = checked }

    /// Whether the pattern is `*/*` or `type/*`.
    public var isWildcard: Bool { rawValue.hasSuffix("/*") }

    /// Whether a concrete MIME type such as `image/png` falls under the pattern; `false` for anything that is not a
    /// concrete MIME type, wildcards included.
    public func matches(_ mime: String) -> Bool {
        guard let concrete = MediaTypePattern(rawValue: mime), !concrete.isWildcard else { return false }
        return covers(concrete)
    }

    /// Whether every media type that `other` stands for falls under this pattern.
    public func covers(_ other: MediaTypePattern) -> Bool {
        if self == .any || self == other { return true }
        guard isWildcard, other != .any else { return false }
        return other.rawValue.hasPrefix(rawValue.dropLast())
    }

    /// The pattern in lowercase.
    public var description: String { rawValue }

    /// What the parser expects, for error messages.
    static let expected = "a MIME type such as “image/png”, “image/*” or “*/*”"

    /// The patterns without repeats and without those another one covers, sorted.
    static func normalized(_ patterns: [MediaTypePattern]) -> [MediaTypePattern] {
        let unique = Set(patterns)
        return unique.filter { pattern in !unique.contains { $0 != pattern && $0.covers(pattern) } }
            .sorted { $0.rawValue < $1.rawValue }
    }

    /// Whether `text` is `type/subtype` or `type/*` with RFC 6838 restricted names.
    private static func isTypeAndSubtype(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, isRestrictedName(parts[0]) else { return false }
        return isRestrictedName(parts[1]) || parts[1] == "*"
    }

    private static let nameBytes = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$&^_.+-".utf8)

    /// 1–127 characters: a letter or digit, then letters, digits and `!#$&-^_.+` (RFC 6838 §4.2).
    private static func isRestrictedName(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 127 else { return false }
        let isAlphanumeric =
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        return isAlphanumeric && name.utf8.allSatisfy(nameBytes.contains)
    }
}
