/// Scope strings (RFC 6749 §3.3): space-separated tokens; the atproto ones the sandbox supports.
enum OAuthScope {
    /// Every scope the sandbox grants.
    static let supported = ["atproto", "transition:generic", "transition:chat.bsky", "transition:email"]

    /// The tokens of a scope string; `nil` when it has empty tokens, repeats or characters outside RFC 6749's.
    static func tokens(_ scope: String) -> [String]? {
        let tokens = scope.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard !tokens.isEmpty, tokens.allSatisfy(isValidToken), Set(tokens).count == tokens.count else { return nil }
        return tokens
    }

    /// Whether a scope string grants one token.
    static func contains(_ scope: String, _ token: String) -> Bool {
        scope.split(separator: " ").contains { $0 == token }
    }

    private static func isValidToken(_ token: String) -> Bool {
        !token.isEmpty
            && token.utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }
}
