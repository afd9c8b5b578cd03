/// One permission: a single token of an OAuth `scope` value, parsed and validated
/// (atproto.com/specs/permission).
///
/// A permission is a static scope (`atproto`, `transition:generic`, `transition:email`, `transition:chat.bsky`), a
/// granular resource permission (`repo`, `rpc`, `blob`, `account`, `identity`), a permission-set reference
/// (`include`), or a proposed `space` permission. Its ``description`` is its canonical string, so two permissions are
/// equal exactly when their canonical strings are: `repo?collection=a.b.c` equals
/// `repo:a.b.c?action=create&action=update&action=delete`.
public struct Permission: Sendable, Hashable, CustomStringConvertible {
    enum Value: Sendable, Hashable {
        case atproto
        case transitionGeneric
        case transitionEmail
        case transitionChatBsky
        case repo(RepoPermission)
        case rpc(RPCPermission)
        case blob(BlobPermission)
        case account(AccountPermission)
        case identity(IdentityPermission)
        case include(IncludePermission)
        case space(SpacePermission)
    }

    let value: Value

    init(value: Value) { self.value = value }

    /// `atproto`: marks an AT Protocol session; required in every request, and grants nothing by itself
    /// (atproto.com/specs/oauth).
    public static let atproto = Permission(value: .atproto)
    /// `transition:generic`: the broad transitional scope; writes to any collection, uploads of any blob, and calls
    /// to any method except `chat.bsky.*`.
    public static let transitionGeneric = Permission(value: .transitionGeneric)
    /// `transition:email`: the transitional scope for reading the account email.
    public static let transitionEmail = Permission(value: .transitionEmail)
    /// `transition:chat.bsky`: the transitional scope for calling `chat.bsky.*` methods.
    public static let transitionChatBsky = Permission(value: .transitionChatBsky)

    /// Wraps a `repo` permission.
    public init(_ repo: RepoPermission) { value = .repo(repo) }
    /// Wraps an `rpc` permission.
    public init(_ rpc: RPCPermission) { value = .rpc(rpc) }
    /// Wraps a `blob` permission.
    public init(_ blob: BlobPermission) { value = .blob(blob) }
    /// Wraps an `account` permission.
    public init(_ account: AccountPermission) { value = .account(account) }
    /// Wraps an `identity` permission.
    public init(_ identity: IdentityPermission) { value = .identity(identity) }
    /// Wraps an `include` permission-set reference.
    public init(_ include: IncludePermission) { value = .include(include) }

    /// The resource, such as ``Resource/repo``.
    public var resource: Resource {
        switch value {
        case .atproto: .atproto
        case .transitionGeneric, .transitionEmail, .transitionChatBsky: .transition
        case .repo: .repo
        case .rpc: .rpc
        case .blob: .blob
        case .account: .account
        case .identity: .identity
        case .include: .include
        case .space: .space
        }
    }

    /// Whether this module knows what the permission grants: `false` for `include`, which the authorization
    /// server expands, and for the proposed `space`.
    public var isUnderstoodLocally: Bool { resource != .include && resource != .space }

    /// The canonical scope string.
    public var description: String {
        switch value {
        case .atproto: "atproto"
        case .transitionGeneric: "transition:generic"
        case .transitionEmail: "transition:email"
        case .transitionChatBsky: "transition:chat.bsky"
        case .repo(let permission): permission.description
        case .rpc(let permission): permission.description
        case .blob(let permission): permission.description
        case .account(let permission): permission.description
        case .identity(let permission): permission.description
        case .include(let permission): permission.description
        case .space(let permission): permission.description
        }
    }
}
