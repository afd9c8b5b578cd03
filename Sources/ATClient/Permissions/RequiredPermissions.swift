import ATProtoPermissions
import ATProtoSyntax
import Foundation
import HTTPTransport

/// What an XRPC call needs of an OAuth grant, as a PDS checks it (atproto.com/specs/permission): a record write
/// needs `repo:<collection>` with its action, a blob upload `blob:<content type>`, a call the PDS proxies
/// `rpc:<method>?aud=<atproto-proxy>`, a service auth token (`com.atproto.server.getServiceAuth`) the `rpc` permission
/// of its `lxm` and `aud`, and the PDS's own account and identity methods what ``PDSMethods`` lists.
///
/// What cannot be read from the request (a body that is not JSON, a collection that is not an NSID) is left to the
/// server: the call is sent and the PDS decides.
enum RequiredPermissions {
    /// The largest JSON body looked into.
    static let maximumBodySize = 1 << 20

    static func of(
        _ nsid: NSID,
        parameters: [(String, String)] = [],
        proxy: String?,
        body: Data?,
        contentType: String?
    ) -> CallNeeds {
        // A PDS routes method names without regard to case: `DeleteRecord` is judged as `deleteRecord`.
        let own = PDSMethods.ownMethod(nsid)
        let nsid = own?.name ?? nsid
        var needs = CallNeeds()
        // The PDS answers its own methods whatever `atproto-proxy` says (atproto.com/specs/xrpc, Service Proxying).
        switch own?.judgement {
        case .open: break
        case .needs(let permission): needs.require(permission)
        case .noGrant: needs.lentToNoGrant = true
        case nil:
            if let proxy {
                guard let audience = ServiceReference(rawValue: proxy) else {
                    needs.isJudgeable = false
                    break
                }
                needs.require(rpc(.nsid(nsid), .service(audience)))
            } else {
                needs.anyService = rpc(.nsid(nsid), .any)
                needs.isJudgeable = needs.anyService != nil
            }
        }
        switch nsid.rawValue {
        case "com.atproto.repo.createRecord": needs.permissions += repo(body, contentType, actions: ["create"])
        case "com.atproto.repo.putRecord": needs.permissions += repo(body, contentType, actions: ["create", "update"])
        case "com.atproto.repo.deleteRecord": needs.permissions += repo(body, contentType, actions: ["delete"])
        case "com.atproto.repo.applyWrites": needs.permissions += writes(body, contentType)
        case "com.atproto.repo.uploadBlob":
            if let type = ContentTypeField.essence(contentType) { needs.permissions += parsed("blob:\(type)") }
        case "com.atproto.server.getServiceAuth":
            for permission in serviceAuth(parameters) { needs.require(permission) }
        case "app.bsky.notification.registerPush", "app.bsky.notification.unregisterPush":
            // The PDS calls the body's `serviceDid`, whatever atproto-proxy says, and checks the rpc permission for
            // its `#bsky_notif` service.
            guard let service = json(body, contentType)?["serviceDid"] as? String,
                let audience = ServiceReference(rawValue: service + "#bsky_notif")
            else {
                needs.isJudgeable = false
                break
            }
            needs.require(rpc(.nsid(nsid), .service(audience)))
        default: break
        }
        return needs
    }

    /// What a service auth token for `lxm` (any method without one) at `aud` needs.
    ///
    /// An `rpc` permission names its audience with a service fragment, so only `aud=*` covers an `aud` without one
    /// (a bare DID, as the lexicon allows). A token for any method at such an audience would need `rpc:*?aud=*`,
    /// which no permission may be: only `transition:generic` with `transition:chat.bsky` allow it.
    private static func serviceAuth(_ parameters: [(String, String)]) -> [Permission?] {
        let lxm = parameters.last { $0.0 == "lxm" }.map(\.1).flatMap { try? NSID(validating: $0) }
        let aud = parameters.last { $0.0 == "aud" }.map(\.1).flatMap(ServiceReference.init(rawValue:))
        switch (lxm, aud) {
        case (let lxm?, let aud?): return [rpc(.nsid(lxm), .service(aud))]
        case (let lxm?, nil): return [rpc(.nsid(lxm), .any)]
        case (nil, let aud?): return [rpc(.any, .service(aud))]
        case (nil, nil): return [.transitionGeneric, .transitionChatBsky]
        }
    }

    /// `repo:<collection>?action=…` for the body's `collection`.
    private static func repo(_ body: Data?, _ contentType: String?, actions: [String]) -> [Permission] {
        guard let collection = json(body, contentType)?["collection"] as? String,
            (try? NSID(validating: collection)) != nil
        else { return [] }
        return actions.flatMap { parsed("repo:\(collection)?action=\($0)") }
    }

    /// One `repo` permission per operation of `com.atproto.repo.applyWrites`.
    private static func writes(_ body: Data?, _ contentType: String?) -> [Permission] {
        guard let writes = json(body, contentType)?["writes"] as? [[String: Any]] else { return [] }
        return writes.flatMap { write -> [Permission] in
            guard let type = write["$type"] as? String, let collection = write["collection"] as? String,
                (try? NSID(validating: collection)) != nil,
                let action = type.split(separator: "#").last, ["create", "update", "delete"].contains(action)
            else { return [] }
            return parsed("repo:\(collection)?action=\(action)")
        }
    }

    private static func json(_ body: Data?, _ contentType: String?) -> [String: Any]? {
        guard let body, body.count <= maximumBodySize, ContentTypeField.isJSON(contentType) else {
            return nil
        }
        return (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }

    private static func parsed(_ text: String) -> [Permission] {
        (try? Permission(parsing: text)).map { [$0] } ?? []
    }

    /// `rpc:<method>?aud=<audience>`, made from its values: a service ID holding `#`, `+`, `&`, `=` or `?` keeps its
    /// meaning, with no string to escape; `nil` when the permission may not exist (`rpc:*?aud=*`).
    private static func rpc(_ method: NSIDPattern, _ audience: RPCAudience) -> Permission? {
        (try? RPCPermission(methods: [method], audience: audience)).map(Permission.init)
    }
}
