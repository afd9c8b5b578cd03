/// Write access to records in the account's public repository, limited by collection and action
/// (atproto.com/specs/permission, Repo).
///
/// `repo:app.bsky.feed.post?action=create` allows creating posts; `repo:*` allows every write to every collection.
public struct RepoPermission: Sendable, Hashable, CustomStringConvertible {
    /// A record operation.
    ///
    /// The spec fixes the set, so this is a closed enumeration.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// Creating a record.
        case create
        /// Updating a record.
        case update
        /// Deleting a record.
        case delete
    }

    /// The collections, sorted without repeats; just ``NSIDPattern/any`` when `*` was among them.
    public let collections: [NSIDPattern]
    /// The allowed actions in the order create, update, delete; all three when the scope names none.
    public let actions: [Action]

    /// Creates a permission; throws when `collections` or `actions` is empty.
    public init(collections: [NSIDPattern], actions: Set<Action> = Set(Action.allCases)) throws(PermissionError) {
        guard !collections.isEmpty else { throw .missingParameter("repo", "repo", "collection") }
        guard !actions.isEmpty else { throw .missingParameter("repo", "repo", "action") }
        self.collections = NSIDPattern.normalized(collections)
        self.actions = Action.allCases.filter(actions.contains)
    }

    /// Reads `collection` (positional, repeatable) and `action` (repeatable, default all).
    init(_ syntax: ScopeTokenSyntax) throws(PermissionError) {
        let reader = try ParameterReader(syntax, positional: "collection", names: ["collection", "action"])
        let collections = try reader.values("collection", required: true, expected: NSIDPattern.expected) {
            NSIDPattern($0)
        }
        let actions = try reader.values("action", required: false, expected: "create, update or delete") {
            Action(rawValue: $0)
        }
        try self.init(collections: collections, actions: actions.isEmpty ? Set(Action.allCases) : Set(actions))
    }

    /// Whether the permission allows `action` on every collection that `collection` stands for.
    func covers(_ collection: NSIDPattern, _ action: Action) -> Bool {
        actions.contains(action) && collections.contains { $0.covers(collection) }
    }

    /// The canonical scope string, such as `repo:app.bsky.feed.post?action=create`.
    public var description: String {
        var string = CanonicalScopeString("repo")
        string.addPositional("collection", collections.map(\.description))
        if actions != Action.allCases { string.add("action", actions.map(\.rawValue)) }
        return string.string
    }
}
