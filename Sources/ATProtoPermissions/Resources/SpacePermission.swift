import ATProtoSyntax

/// Access to a permissioned-data space, such as `space:com.example.forum?authority=*&action=read`.
///
/// Spaces are a proposal, not yet part of atproto.com/specs/permission. This module checks their syntax (the
/// space type as an NSID or `*`, positional or `spaceType=`; one `authority` of `*`, `self` or a DID; one `skey`
/// of `*` or record-key syntax; `collection` NSIDs or `*`; known `action` and `manage` values) and keeps them, but
/// never treats them as granting anything. Their canonical form only reorders and deduplicates what was written: no
/// value is added or left out, since the proposal's defaults are not settled.
public struct SpacePermission: Sendable, Hashable, CustomStringConvertible {
    /// An operation on a space's records, from the proposal.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// Reading one's own records.
        case readSelf = "read_self"
        /// Reading every record.
        case read
        /// Creating a record.
        case create
        /// Updating a record.
        case update
        /// Deleting a record.
        case delete
    }

    /// An operation on the space itself, from the proposal.
    public enum ManageOperation: String, Sendable, Hashable, CaseIterable {
        /// Creating the space.
        case create
        /// Updating the space.
        case update
        /// Deleting the space.
        case delete
    }

    /// The space type, an NSID or `*`.
    public let spaceType: NSIDPattern
    /// The `authority` as written (`*`, `self` or a DID), when given.
    public let authority: String?
    /// The space key (`skey`) as written (`*` or a record key), when given.
    public let key: String?
    /// The collections, sorted without repeats.
    public let collections: [NSIDPattern]
    /// The record actions written, in declaration order without repeats.
    public let actions: [Action]
    /// The space operations written, in declaration order without repeats.
    public let manage: [ManageOperation]

    /// Reads a `space` token; see the type's summary for the rules.
    init(_ syntax: ScopeTokenSyntax) throws(PermissionError) {
        let names = ["spaceType", "authority", "skey", "collection", "action", "manage"]
        let reader = try ParameterReader(syntax, positional: "spaceType", names: names)
        let spaceType = try reader.single("spaceType", required: true, expected: NSIDPattern.expected) {
            NSIDPattern($0)
        }
        guard let spaceType else { throw .missingParameter(syntax.token, "space", "spaceType") }
        self.spaceType = spaceType
        authority = try reader.single("authority", required: false, expected: "“*”, “self” or a DID") { text in
            text == "*" || text == "self" || DID.isValid(text) ? text : nil
        }
        key = try reader.single("skey", required: false, expected: "“*” or a record key") { text in
            text == "*" || Self.isRecordKey(text) ? text : nil
        }
        collections = NSIDPattern.sortedUnique(
            try reader.values("collection", required: false, expected: NSIDPattern.expected) { NSIDPattern($0) }
        )
        let actions = try reader.values("action", required: false, expected: "a space action such as “read”") {
            Action(rawValue: $0)
        }
        self.actions = Action.allCases.filter(actions.contains)
        let manage = try reader.values("manage", required: false, expected: "create, update or delete") {
            ManageOperation(rawValue: $0)
        }
        self.manage = ManageOperation.allCases.filter(manage.contains)
    }

    /// The canonical scope string: the parameters in a fixed order, nothing added or dropped.
    public var description: String {
        var string = CanonicalScopeString("space")
        string.addPositional("spaceType", [spaceType.description])
        string.add("authority", authority.map { [$0] } ?? [])
        string.add("skey", key.map { [$0] } ?? [])
        string.add("collection", collections.map(\.description))
        string.add("action", actions.map(\.rawValue))
        string.add("manage", manage.map(\.rawValue))
        return string.string
    }

    private static let recordKeyBytes = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:~-".utf8
    )

    /// Record-key syntax: 1–512 letters, digits and `._:~-`, but not `.` or `..` (atproto.com/specs/record-key).
    private static func isRecordKey(_ text: String) -> Bool {
        (1...512).contains(text.utf8.count) && text != "." && text != ".."
            && text.utf8.allSatisfy(recordKeyBytes.contains)
    }
}
