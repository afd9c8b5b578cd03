import ATProtoPermissions
import ATProtoSyntax
import AccountManager
import ArgumentParser
import Foundation
import OAuthSessionManager

/// What `accounts status` shows; the JSON shape is stable.
struct SessionStatus: Encodable {
    var kind: String
    var did: String
    var handle: String?
    var active: Bool
    var pds: String
    var issuer: String
    var scope: String
    var permissions: [String]
    var notGranted: [String]
    var accessTokenExpiresAt: String?
    var signedInAt: String
    var refreshedAt: String
    var sessionEndsAtLatest: String
    /// `public` or `confidential` for an OAuth session; `nil` for an app-password session.
    var client: String?
    /// The `kid` of the client key a confidential client's session is bound to.
    var clientKeyID: String?
    /// The PLC directory and the handle resolution service the account was signed in with and is refreshed through,
    /// when they are not the defaults (plc.directory; DNS and HTTPS).
    var plcDirectory: String?
    var handleResolver: String?
    /// What the PDS said of the session, with `--check`.
    var check: SessionCheck?
    private let endIsRenewedByRefresh: Bool
    private let tokens: [ScopeSet.Token]
    private let ages: (expiry: String?, signedIn: String, refreshed: String, end: String)

    private enum CodingKeys: String, CodingKey {
        case kind, did, handle, active, pds, issuer, scope, permissions, notGranted, accessTokenExpiresAt
        case signedInAt, refreshedAt, sessionEndsAtLatest, check, client, clientKeyID, plcDirectory, handleResolver
    }

    init(account: Account, session: Session, now: Date) {
        kind = session.kind.rawValue
        did = account.did.rawValue
        handle = account.handle?.description
        active = account.active
        pds = session.pds.absoluteString
        issuer = session.issuer
        scope = session.scope
        tokens = session.permissions.tokens
        permissions = tokens.map(\.description)
        notGranted = session.missingPermissions.tokens.map(\.description)
        let timestamp = ISO8601DateFormatter()
        accessTokenExpiresAt = session.accessTokenExpiresAt.map(timestamp.string)
        signedInAt = timestamp.string(from: session.createdAt)
        refreshedAt = timestamp.string(from: session.updatedAt)
        let end = session.endsAtLatest
        sessionEndsAtLatest = timestamp.string(from: end)
        endIsRenewedByRefresh = session.endIsRenewedByRefresh
        plcDirectory = session.identityServices?.plcDirectory?.absoluteString
        handleResolver = session.identityServices?.handleResolver?.absoluteString
        if case .oauth(let grant) = session.credential {
            client = grant.clientKeyID == nil ? "public" : "confidential"
            clientKeyID = grant.clientKeyID
        }
        ages = (
            session.accessTokenExpiresAt.map { Self.relative($0, now: now) },
            Self.relative(session.createdAt, now: now, past: true),
            Self.relative(session.updatedAt, now: now, past: true),
            Self.relative(end, now: now)
        )
    }

    /// The readable form: one field per line, one permission per line with what it allows.
    var text: String {
        var lines = ["\(handle ?? "-") \(did)\(active ? " (active)" : "")", field("kind", kind), field("PDS", pds)]
        lines.append(field("issuer", issuer))
        if let client {
            lines.append(field("client", client + (clientKeyID.map { " (private_key_jwt, key \($0))" } ?? "")))
        }
        if let plcDirectory { lines.append(field("PLC", plcDirectory)) }
        if let handleResolver { lines.append(field("handles via", handleResolver)) }
        for (index, token) in tokens.enumerated() {
            let line = "\(token)  — \(PermissionWords.text(token))"
            lines.append(index == 0 ? field("permissions", line) : field("", line))
        }
        for (index, missing) in notGranted.enumerated() {
            lines.append(field(index == 0 ? "not granted" : "", missing))
        }
        if let expiry = accessTokenExpiresAt, let age = ages.expiry {
            lines.append(field("access token", "expires \(expiry) (\(age)); refreshed when needed"))
        }
        lines.append(field("signed in", "\(signedInAt) (\(ages.signedIn))"))
        lines.append(field("refreshed", "\(refreshedAt) (\(ages.refreshed))"))
        lines.append(field("session ends", "\(sessionEndsAtLatest) (\(ages.end)) " + endRule))
        if let check { lines.append(field("checked", check.text)) }
        return lines.joined(separator: "\n")
    }

    /// What the session's end depends on, after its date.
    private var endRule: String {
        switch (endIsRenewedByRefresh, clientKeyID != nil) {
        case (true, true):
            "when its refresh token expires, unless it is refreshed before, and two years after sign-in at the latest "
                + "(the reference server's lifetimes for a confidential client); the server may end it sooner"
        case (true, false): "unless it is refreshed before; the server may end it sooner"
        case (false, true):
            "at the latest at the reference server (two years after a confidential client's sign-in); the server "
                + "decides, and may end it sooner"
        case (false, false): "at the latest; the server may end it sooner"
        }
    }

    private func field(_ name: String, _ value: String) -> String {
        "  " + name.padding(toLength: 13, withPad: " ", startingAt: 0) + value
    }

    /// A date relative to `now`: "in 4 min", "3 h ago", "now".
    ///
    /// A stored date too far away for an `Int` of seconds reads in whole days, never traps. A `past` event (a
    /// sign-in, a refresh) is never "in" some time, even when clocks disagree a little.
    static func relative(_ date: Date, now: Date, past: Bool = false) -> String {
        let interval = date.timeIntervalSince(now)
        guard interval.isFinite else { return "at an unknown time" }
        var seconds = Int(min(max(interval, -1e15), 1e15).rounded())
        if past { seconds = min(seconds, 0) }
        if seconds == 0 { return past ? "just now" : "now" }
        let magnitude = abs(seconds)
        let amount =
            switch magnitude {
            case ..<60: "\(magnitude) s"
            case ..<3600: "\(magnitude / 60) min"
            case ..<86_400: "\(magnitude / 3600) h"
            default: "\(magnitude / 86_400) d"
            }
        return seconds >= 0 ? "in \(amount)" : "\(amount) ago"
    }
}
