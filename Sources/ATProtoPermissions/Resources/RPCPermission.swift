/// Authenticated calls to remote services through the PDS, limited by method (`lxm`) and audience (`aud`)
/// (atproto.com/specs/permission, RPC).
///
/// `rpc:app.bsky.actor.getProfile?aud=did:web:api.bsky.app%23bsky_appview` allows one method on one service.
/// The method and the audience cannot both be `*`.
public struct RPCPermission: Sendable, Hashable, CustomStringConvertible {
    /// The methods, sorted without repeats; just ``NSIDPattern/any`` when `*` was among them.
    public let methods: [NSIDPattern]
    /// The service the calls may go to.
    public let audience: RPCAudience

    /// Creates a permission; throws when `methods` is empty or when both `methods` and `audience` are wildcards.
    public init(methods: [NSIDPattern], audience: RPCAudience) throws(PermissionError) {
        guard !methods.isEmpty else { throw .missingParameter("rpc", "rpc", "lxm") }
        self.methods = NSIDPattern.normalized(methods)
        self.audience = audience
        if self.methods == [.any], audience == .any {
            throw .conflictingParameters(description, "“lxm” and “aud” cannot both be “*”")
        }
    }

    /// Reads `lxm` (positional, repeatable) and `aud` (required, single).
    init(_ syntax: ScopeTokenSyntax) throws(PermissionError) {
        let reader = try ParameterReader(syntax, positional: "lxm", names: ["lxm", "aud"])
        let methods = try reader.values("lxm", required: true, expected: NSIDPattern.expected) { NSIDPattern($0) }
        let audience = try reader.single("aud", required: true, expected: RPCAudience.expected) { RPCAudience($0) }
        guard let audience else { throw .missingParameter(syntax.token, "rpc", "aud") }
        do {
            try self.init(methods: methods, audience: audience)
        } catch {
            throw .conflictingParameters(syntax.token, error.reason)
        }
    }

    /// Whether the permission allows calling every method `method` stands for at every service `audience` stands for.
    func covers(_ method: NSIDPattern, _ audience: RPCAudience) -> Bool {
        self.audience.covers(audience) && methods.contains { $0.covers(method) }
    }

    /// The canonical scope string, such as `rpc:app.bsky.feed.getFeed?aud=*`.
    public var description: String {
        var string = CanonicalScopeString("rpc")
        string.addPositional("lxm", methods.map(\.description))
        string.add("aud", [audience.description])
        return string.string
    }
}
