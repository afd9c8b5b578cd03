/// Uploading media files (blobs) of the accepted MIME types (atproto.com/specs/permission, Blob).
///
/// `blob:image/*` allows uploading any image; `blob:*/*` allows any file.
public struct BlobPermission: Sendable, Hashable, CustomStringConvertible {
    /// The accepted patterns, sorted without repeats and without those another one covers (`image/png` goes when
    /// `image/*` is there, everything but `*/*` when it is).
    public let accept: [MediaTypePattern]

    /// Creates a permission; throws when `accept` is empty.
    public init(accept: [MediaTypePattern]) throws(PermissionError) {
        guard !accept.isEmpty else { throw .missingParameter("blob", "blob", "accept") }
        self.accept = MediaTypePattern.normalized(accept)
    }

    /// Reads `accept` (positional, repeatable).
    init(_ syntax: ScopeTokenSyntax) throws(PermissionError) {
        let reader = try ParameterReader(syntax, positional: "accept", names: ["accept"])
        let accept = try reader.values("accept", required: true, expected: MediaTypePattern.expected) {
            MediaTypePattern(rawValue: $0)
        }
        try self.init(accept: accept)
    }

    /// Whether the permission accepts every media type that `pattern` stands for.
    func covers(_ pattern: MediaTypePattern) -> Bool { accept.contains { $0.covers(pattern) } }

    /// The canonical scope string, such as `blob:image/*`.
    public var description: String {
        var string = CanonicalScopeString("blob")
        string.addPositional("accept", accept.map(\.rawValue))
        return string.string
    }
}
