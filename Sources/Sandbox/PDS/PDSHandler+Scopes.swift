import ATProtoPermissions
import Foundation

/// What an XRPC method needs from the access token's scope (atproto.com/specs/permission).
enum ScopeNeed: Sendable {
    /// Only a valid token.
    case validToken
    /// `repo:<collection of the body>?action=<action>`.
    case repo(RepoPermission.Action)
    /// `blob:<media type of the body>`.
    case blob
    /// `rpc:<method>?aud=<atproto-proxy header, or the Bluesky AppView>`, for a call a real PDS proxies.
    case rpc(String)
}

extension PDSHandler {
    /// The service a proxied call goes to without an `atproto-proxy` header: the Bluesky AppView.
    static let defaultProxyService = "did:web:api.bsky.app#bsky_appview"

    /// Checks that the token's scope grants what `need` asks for this request.
    ///
    /// A refusal answers as the reference PDS does: `403` with `ScopeMissingError` naming the missing permission in
    /// canonical form, without a `WWW-Authenticate` challenge. A body or header that names no permission is left to
    /// the method, which refuses it, except a collection, media type or service that cannot form a permission.
    func checkScope(
        _ need: ScopeNeed,
        _ request: SandboxRequest,
        _ caller: AuthenticatedCaller
    ) throws(SandboxRejection) {
        guard let permission = try requiredPermission(need, request),
            !ScopeSet(granted: caller.scope).covers(permission)
        else { return }
        throw reject(.scopeMissing, 403, "ScopeMissingError", "Missing required scope \"\(permission)\"")
    }

    /// The permission `need` stands for in this request; `nil` when none is needed or the request names none.
    private func requiredPermission(
        _ need: ScopeNeed,
        _ request: SandboxRequest
    ) throws(SandboxRejection) -> Permission? {
        switch need {
        case .validToken:
            return nil
        case .repo(let action):
            guard let collection = JSONBody.decodeObject(request.body)?["collection"] as? String else { return nil }
            guard let pattern = NSIDPattern(collection), pattern != .any,
                let repo = try? RepoPermission(collections: [pattern], actions: [action])
            else { throw invalid("collection must be an NSID") }
            return Permission(repo)
        case .blob:
            let mediaType = request.mediaType ?? "application/octet-stream"
            guard let pattern = MediaTypePattern(rawValue: mediaType), !pattern.isWildcard,
                let blob = try? BlobPermission(accept: [pattern])
            else { throw invalid("Content-Type must be a MIME type such as image/png") }
            return Permission(blob)
        case .rpc(let method):
            let proxy = request.header("atproto-proxy") ?? Self.defaultProxyService
            guard let service = ServiceReference(rawValue: proxy), let lxm = NSIDPattern(method),
                let rpc = try? RPCPermission(methods: [lxm], audience: .service(service))
            else {
                throw invalid("atproto-proxy must be a DID and a service id, such as \(Self.defaultProxyService)")
            }
            return Permission(rpc)
        }
    }
}
