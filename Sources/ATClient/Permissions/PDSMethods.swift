package import ATProtoSyntax
import HTTPTransport

/// The methods a PDS answers itself, and what it asks of an OAuth grant for each, as the reference PDS
/// (`@atproto/pds`) checks them (atproto.com/specs/permission, Permission Resources; atproto.com/specs/xrpc,
/// Service Proxying).
///
/// A method not listed here and sent without `atproto-proxy` is forwarded by the PDS to a service of its own choice
/// (its AppView, moderation or report service), under the `rpc` permission for that service.
///
/// A PDS routes method names without regard to case (the reference's router, and its `normalizeLxm`), so
/// `com.atproto.repo.DeleteRecord` runs `deleteRecord`: every look-up here ignores case, and ``canonical(_:)`` gives
/// the spelling the rest of the checks compare.
package enum PDSMethods {
    /// How a PDS judges a grant calling one of its own methods.
    enum Judgement: Equatable {
        /// Any grant may call it; a record write, an upload and a service auth token are judged by their input.
        case open
        /// The grant must hold this permission.
        case needs(String)
        /// No OAuth grant may call it: a PDS lends it only to a password or app-password session.
        case noGrant
    }

    /// One of the PDS's own methods: its name as the PDS spells it, and how it judges a grant calling it.
    struct OwnMethod {
        /// The method's name as listed here.
        let name: NSID
        /// What the PDS asks of a grant calling it.
        let judgement: Judgement
    }

    /// The PDS's own method that `nsid` names in whatever case, or `nil` when the PDS forwards the call.
    ///
    /// It runs on every call, so it neither copies the name nor parses one: a name spelled as listed is found by one
    /// look-up, another by comparing it with the listed names of its length.
    static func ownMethod(_ nsid: NSID) -> OwnMethod? {
        let name = nsid.rawValue
        if let method = byName[name]
            ?? byLength[name.utf8.count]?.first(where: { $0.name.rawValue.caseInsensitiveEquals(name) })
        {
            return method
        }
        return name.caseInsensitiveHasPrefix("com.atproto.admin.") ? OwnMethod(name: nsid, judgement: .noGrant) : nil
    }

    /// `nsid` as the PDS's own method of that name, in whatever case, is spelled; else `nsid` itself.
    package static func canonical(_ nsid: NSID) -> NSID {
        ownMethod(nsid)?.name ?? nsid
    }

    /// Every method listed here, by its name as listed.
    private static let byName: [String: OwnMethod] = {
        let judged =
            guarded.map { ($0.key, Judgement.needs($0.value)) } + noGrant.map { ($0, Judgement.noGrant) }
            + open.map { ($0, Judgement.open) }
        return Dictionary(
            judged.compactMap { name, judgement in
                (try? NSID(validating: name)).map { (name, OwnMethod(name: $0, judgement: judgement)) }
            },
            uniquingKeysWith: { first, _ in first }
        )
    }()

    /// Every method listed here, by the length of its name.
    private static let byLength: [Int: [OwnMethod]] = Dictionary(
        grouping: byName.values,
        by: \.name.rawValue.utf8.count
    )

    /// Methods a grant may call only with a permission over the account or its identity.
    private static let guarded: [String: String] = [
        "com.atproto.identity.updateHandle": "identity:handle",
        "com.atproto.identity.requestPlcOperationSignature": "identity:*",
        "com.atproto.identity.signPlcOperation": "identity:*",
        "com.atproto.identity.submitPlcOperation": "identity:*",
        "com.atproto.repo.importRepo": "account:repo?action=manage",
        "com.atproto.server.requestEmailConfirmation": "account:email?action=manage",
        "com.atproto.server.confirmEmail": "account:email?action=manage",
    ]

    /// Account management, app passwords and invite codes: refused to every OAuth grant.
    private static let noGrant: Set<String> = [
        "com.atproto.server.activateAccount", "com.atproto.server.deactivateAccount",
        "com.atproto.server.requestAccountDelete", "com.atproto.server.createAppPassword",
        "com.atproto.server.listAppPasswords", "com.atproto.server.revokeAppPassword",
        "com.atproto.server.getAccountInviteCodes", "com.atproto.server.createInviteCode",
        "com.atproto.server.createInviteCodes", "com.atproto.server.requestEmailUpdate",
        "com.atproto.server.updateEmail", "com.atproto.temp.checkSignupQueue",
    ]

    /// Methods any grant may call (or that need no session at all); `getSession` shows the email only to a grant
    /// that may read it.
    private static let open: Set<String> = [
        "com.atproto.identity.getRecommendedDidCredentials", "com.atproto.identity.resolveHandle",
        "com.atproto.repo.applyWrites", "com.atproto.repo.createRecord", "com.atproto.repo.putRecord",
        "com.atproto.repo.deleteRecord", "com.atproto.repo.describeRepo", "com.atproto.repo.getRecord",
        "com.atproto.repo.listRecords", "com.atproto.repo.listMissingBlobs", "com.atproto.repo.uploadBlob",
        "com.atproto.server.checkAccountStatus", "com.atproto.server.createAccount", "com.atproto.server.deleteAccount",
        "com.atproto.server.describeServer", "com.atproto.server.getServiceAuth", "com.atproto.server.getSession",
        "com.atproto.server.requestPasswordReset", "com.atproto.server.resetPassword",
        "com.atproto.server.reserveSigningKey", "com.atproto.server.createSession",
        "com.atproto.server.refreshSession", "com.atproto.server.deleteSession", "com.atproto.sync.getBlob",
        "com.atproto.sync.getBlocks", "com.atproto.sync.getLatestCommit", "com.atproto.sync.getRecord",
        "com.atproto.sync.getRepo", "com.atproto.sync.getRepoStatus", "com.atproto.sync.listBlobs",
        "com.atproto.sync.listRepos", "com.atproto.sync.subscribeRepos", "com.atproto.sync.getCheckout",
        "com.atproto.sync.getHead", "app.bsky.notification.registerPush", "app.bsky.notification.unregisterPush",
    ]
}
