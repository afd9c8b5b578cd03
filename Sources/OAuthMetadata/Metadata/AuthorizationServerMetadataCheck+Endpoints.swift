import Foundation
import HTTPTransport

extension AuthorizationServerMetadataCheck {
    /// Each endpoint usable and on the issuer's origin, and a revocation endpoint (RFC 8414 §2).
    ///
    /// An endpoint on another origin works but is unusual (atproto.com/specs/oauth, Security Concerns); it and a
    /// missing revocation endpoint are reported together. The PAR endpoint's own problems are `as-metadata-par`'s:
    /// here only its origin is compared.
    var endpoints: MetadataFinding {
        let members: [(String, String?)] = [
            ("authorization_endpoint", wire.authorizationEndpoint), ("token_endpoint", wire.tokenEndpoint),
            ("revocation_endpoint", wire.revocationEndpoint),
        ]
        var usable: [(member: String, url: URL)] = []
        for (member, value) in members {
            if member == "revocation_endpoint", value == nil { continue }
            switch endpoint(value) {
            case .failure(let problem):
                return .fail(
                    .endpoints,
                    "“\(member)”: \(problem.reason)",
                    member: member,
                    fix: "Every endpoint must be an https:// URL on a public address. " + Self.operatorFix,
                    who: .server
                )
            case .success(let url):
                usable.append((member, url))
            }
        }
        if case .success(let url) = endpoint(wire.pushedAuthorizationRequestEndpoint) {
            usable.append(("pushed_authorization_request_endpoint", url))
        }
        let issuerOrigin = Self.origin(URL(string: issuer))
        let elsewhere = usable.filter { Self.origin($0.url) != issuerOrigin }
        var seen: [String] = []
        var fixes: [String] = []
        if !elsewhere.isEmpty {
            let listed = elsewhere.map { "\($0.member) \($0.url.absoluteString)" }.joined(separator: ", ")
            seen.append("on another origin than the issuer \(issuer): \(listed)")
            fixes.append("Endpoints on another origin work, but are unusual; check they belong to the same operator.")
        }
        if wire.revocationEndpoint == nil {
            seen.append("there is no “revocation_endpoint”")
            fixes.append(
                "Sign-out cannot revoke tokens at this server; they stay valid until they expire. " + Self.operatorFix
            )
        }
        guard seen.isEmpty else {
            return .warn(
                .endpoints,
                seen.joined(separator: "; "),
                fix: fixes.joined(separator: " "),
                who: .server
            )
        }
        return .pass(.endpoints, "every endpoint is on \(issuer)")
    }

    /// `nil` when the PDS is not known.
    var protectedResources: MetadataFinding? {
        guard let pds else { return nil }
        guard let listed = wire.protectedResources else {
            return .pass(.protectedResources, "the server does not list its protected resources")
        }
        guard listed.contains(pds) else {
            return .fail(
                .protectedResources,
                "“protected_resources” does not include the PDS \(pds)",
                member: "protected_resources",
                fix: "The authorization server must list the PDS among its protected resources, or the PDS must name "
                    + "its real authorization server; their operator must fix it.",
                who: .server
            )
        }
        return .pass(.protectedResources, "“protected_resources” includes \(pds)")
    }

    /// Why an endpoint member cannot be used.
    struct Problem: Error {
        var reason: String
    }

    /// An endpoint member: an https URL without a fragment on a usable host (http loopback in development mode).
    func endpoint(_ text: String?) -> Result<URL, Problem> {
        guard let text else { return .failure(Problem(reason: "it is missing")) }
        guard let url = URL(string: text), url.fragment == nil else {
            return .failure(Problem(reason: "“\(text)” is not a valid URL"))
        }
        do {
            _ = try policy.checkBeforeResolving(url)
        } catch {
            return .failure(Problem(reason: (error as? FetchError)?.reason ?? "\(error)"))
        }
        return .success(url)
    }

    private static func origin(_ url: URL?) -> String? {
        guard let url, let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host.lowercased()):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }
}
