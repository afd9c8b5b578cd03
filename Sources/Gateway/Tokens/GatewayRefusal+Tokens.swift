import ATProtoSyntax

extension GatewayRefusal {
    /// 401: a named token that expired.
    static let tokenExpired = GatewayRefusal(
        401,
        "TokenExpired",
        "This gateway token has expired; ask for a new one (atoauth gateway token create).",
        headers: [challenge]
    )

    /// 403: the token may not act as the account the call would go out as, or names one not signed in here (the
    /// same answer, so that a token limited to some accounts learns nothing of the others); nothing was forwarded.
    static let accountNotAllowed = GatewayRefusal(
        403,
        "AccountNotAllowed",
        "This gateway token may not act as that account; name one of its accounts with atoauth-account."
    )

    /// 403: the token's permissions do not cover the call; nothing was forwarded.
    ///
    /// `unnamedService`: the permission lacking is `rpc:<nsid>?aud=*`, asked for because the call names no service
    /// with `atproto-proxy`. `unreadBody`: no permission could be read from a procedure's body.
    static func tokenScopeMissing(
        _ permission: String?,
        nsid: NSID,
        unnamedService: Bool = false,
        unreadBody: Bool = false
    ) -> GatewayRefusal {
        var refusal = scopeMissing(permission)
        if unreadBody {
            refusal.message +=
                " (the gateway token's permissions do not cover \(nsid), or could not be checked: what it writes"
                + " is read from a JSON body of at most \(GatewayHandler.inspectableBodyLimit >> 10) KiB)"
        } else if permission == nil {
            refusal.message += " (the gateway token's permissions do not cover \(nsid))"
        } else if unnamedService {
            refusal.message +=
                " (the gateway token's permissions lack it: without atproto-proxy, the PDS sends \(nsid) to a"
                + " service of its own choosing; name the service to be judged by an rpc permission for it)"
        } else {
            refusal.message += " (the gateway token's permissions lack it)"
        }
        return refusal
    }

    /// 403: a method a PDS lends to no OAuth grant (app passwords, account management, invite codes), so to no
    /// limited token either; nothing was forwarded.
    static func lentToNoGrant(_ nsid: NSID) -> GatewayRefusal {
        var refusal = scopeMissing(nil)
        refusal.message +=
            " (no permission covers \(nsid): a PDS lends it to no OAuth grant, so only an unrestricted gateway"
            + " token may call it, for an app-password account)"
        return refusal
    }

    /// 403: a method that would end or rotate the gateway's own sessions, or make credentials, is never lent.
    static func notLent(_ nsid: NSID) -> GatewayRefusal {
        GatewayRefusal(
            403,
            "MethodNotAllowed",
            "\(nsid) is not lent through the gateway: its sessions are signed in, refreshed and ended by atoauth alone."
        )
    }

    /// The methods no token may call: they make, refresh or end sessions, or make app passwords.
    static let unlentMethods: Set<String> = [
        "com.atproto.server.createSession", "com.atproto.server.refreshSession", "com.atproto.server.deleteSession",
        "com.atproto.server.createAppPassword", "com.atproto.server.revokeAppPassword",
    ]
}
