/// A whole OAuth `scope` value: space-separated permission tokens (RFC 6749 §3.3, atproto.com/specs/permission).
///
/// Parse what an app requests with ``init(requested:)``, which refuses any bad token, and what a server granted with
/// ``init(granted:)``, which keeps tokens it cannot parse as unrecognized. Tokens keep the order of their first
/// appearance and repeats are dropped (two tokens repeat when their canonical forms are equal); equality ignores
/// order. The ``description`` is the canonical scope value: each permission in canonical form, unrecognized tokens
/// as written, separated by single spaces.
public struct ScopeSet: Sendable, Hashable, CustomStringConvertible {
    /// One token of a scope value.
    public enum Token: Sendable, Hashable, CustomStringConvertible {
        /// A token that parsed.
        case permission(Permission)
        /// A token that did not parse, kept as written; it never grants anything.
        case unrecognized(String)

        /// The permission's canonical string, or the unrecognized token as written.
        public var description: String {
            switch self {
            case .permission(let permission): permission.description
            case .unrecognized(let token): token
            }
        }
    }

    /// The tokens in order of first appearance, without repeats.
    public let tokens: [Token]

    /// Parses what an app requests, strictly: throws ``PermissionError`` for the first token that does not parse.
    public init(requested scope: String) throws(PermissionError) {
        var tokens: [Token] = []
        for token in Self.split(scope) { tokens.append(.permission(try Permission(parsing: token))) }
        self.init(tokens: tokens)
    }

    /// Parses what a server granted, leniently: tokens that do not parse are kept as ``Token/unrecognized(_:)``.
    public init(granted scope: String) {
        self.init(
            tokens: Self.split(scope).map { token in
                (try? Permission(parsing: token)).map(Token.permission) ?? .unrecognized(token)
            }
        )
    }

    /// Creates a scope set from permissions, dropping repeats.
    public init(_ permissions: some Sequence<Permission>) {
        self.init(tokens: permissions.map(Token.permission))
    }

    init(tokens: some Sequence<Token>) {
        var seen: Set<Token> = []
        self.tokens = tokens.filter { seen.insert($0).inserted }
    }

    /// The tokens that parsed.
    public var permissions: [Permission] {
        tokens.compactMap { token in if case .permission(let permission) = token { permission } else { nil } }
    }

    /// The tokens that did not parse, as written.
    public var unrecognized: [String] {
        tokens.compactMap { token in if case .unrecognized(let text) = token { text } else { nil } }
    }

    /// Whether there are no tokens.
    public var isEmpty: Bool { tokens.isEmpty }

    /// Whether `scope` is a scope value as RFC 6749 §3.3 writes it.
    ///
    /// That is tokens of the printable ASCII characters but `"` and `\`, separated by single spaces. A value from a
    /// server that is not is refused before it is kept.
    public static func isWellFormed(_ scope: String) -> Bool {
        var previousWasSpace = true
        for byte in scope.utf8 {
            if byte == 0x20 {
                guard !previousWasSpace else { return false }
                previousWasSpace = true
            } else {
                guard (0x21...0x7E).contains(byte), byte != 0x22, byte != 0x5C else { return false }
                previousWasSpace = false
            }
        }
        return !previousWasSpace
    }

    /// Whether this module knows what every token grants: no unrecognized tokens, and no `include` or `space`
    /// permissions, whose meaning is decided elsewhere.
    public var isFullyUnderstood: Bool {
        permissions.count == tokens.count && permissions.allSatisfy(\.isUnderstoodLocally)
    }

    /// Whether the set holds exactly this permission (compared by canonical form, not by what it grants).
    public func contains(_ permission: Permission) -> Bool { tokens.contains(.permission(permission)) }

    /// The canonical scope value.
    public var description: String { tokens.map(\.description).joined(separator: " ") }

    /// Whether both sets hold the same tokens, in any order.
    public static func == (lhs: ScopeSet, rhs: ScopeSet) -> Bool { Set(lhs.tokens) == Set(rhs.tokens) }

    /// Hashes the tokens without regard to order.
    public func hash(into hasher: inout Hasher) { hasher.combine(Set(tokens)) }

    /// The non-empty space-separated pieces of a scope value.
    private static func split(_ scope: String) -> [String] {
        scope.split(separator: " ").map(String.init)
    }
}
