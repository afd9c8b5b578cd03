import ATProtoPermissions

/// Scope values (RFC 6749 §3.3) as the sandbox reads them: space-separated permission tokens, parsed strictly
/// (atproto.com/specs/permission) and required to hold `atproto` (atproto.com/specs/oauth, Scopes).
enum OAuthScope {
    /// The scopes the metadata documents list in `scopes_supported`.
    ///
    /// Only the static scopes are listed, as the reference server does; every granular permission
    /// (`repo`, `rpc`, `blob`, `account`, `identity`, `include`, and the proposed `space`) is accepted too, since
    /// resource permissions are parameterized and cannot be enumerated (atproto.com/specs/permission).
    static let supported = ["atproto", "transition:generic", "transition:chat.bsky", "transition:email"]

    /// Why a scope value is refused, in words.
    struct Invalid: Error, Sendable {
        /// The explanation, naming the offending token when there is one.
        var reason: String
    }

    /// Parses a scope value strictly; refuses a token that does not parse, or a value without `atproto`.
    static func parse(_ scope: String) throws(Invalid) -> ScopeSet {
        guard ScopeSet.isWellFormed(scope) else {
            throw Invalid(
                reason: "the scope must be tokens of printable ASCII (no \" or \\) separated by single spaces "
                    + "(RFC 6749 §3.3)"
            )
        }
        let parsed: ScopeSet
        do {
            parsed = try ScopeSet(requested: scope)
        } catch {
            throw Invalid(reason: error.description)
        }
        guard parsed.contains(.atproto) else { throw Invalid(reason: "the scope must contain atproto") }
        return parsed
    }

    /// The tokens of a scope value a client registered (a loopback `client_id`'s `scope` parameter or a hosted client
    /// metadata document's `scope`), as written: requested tokens are compared with them as strings.
    static func registered(_ scope: String) throws(ClientResolver.Refusal) -> Set<String> {
        do {
            _ = try parse(scope)
            return Set(scope.split(separator: " ").map(String.init))
        } catch {
            throw ClientResolver.Refusal(reason: "the client's scope is invalid: \(error.reason)")
        }
    }
}
