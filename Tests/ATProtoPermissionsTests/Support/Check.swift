import ATProtoPermissions
import ATProtoSyntax
import Testing

/// One question to ask a scope set, written so that parameterized tests read well.
enum Check: Sendable, CustomTestStringConvertible {
    case repo(String, RepoPermission.Action)
    case rpc(String, String)
    case blob(String)
    case account(AccountPermission.Attribute, AccountPermission.Action)
    case identity(IdentityPermission.Attribute)

    /// Asks `scope`; a malformed NSID or audience in the check itself fails the test.
    func ask(_ scope: ScopeSet) throws -> Bool {
        switch self {
        case .repo(let collection, let action):
            return scope.allowsRepo(collection: try NSID(validating: collection), action: action)
        case .rpc(let lxm, let aud):
            let service = try #require(ServiceReference(rawValue: aud))
            return scope.allowsRPC(lxm: try NSID(validating: lxm), aud: service)
        case .blob(let mime):
            return scope.allowsBlob(mime: mime)
        case .account(let attribute, let action):
            return scope.allowsAccount(attr: attribute, action: action)
        case .identity(let attribute):
            return scope.allowsIdentity(attr: attribute)
        }
    }

    var testDescription: String {
        switch self {
        case .repo(let collection, let action): "\(action) \(collection)"
        case .rpc(let lxm, let aud): "call \(lxm) at \(aud)"
        case .blob(let mime): "upload \(mime)"
        case .account(let attribute, let action): "\(action) account \(attribute)"
        case .identity(let attribute): "identity \(attribute)"
        }
    }
}
