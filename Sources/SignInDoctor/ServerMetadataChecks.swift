import Foundation
import HTTPTransport
import OAuthSessionManager

/// The member-by-member checks of an authorization server's metadata (RFC 8414 §2; atproto.com/specs/oauth,
/// Authorization Servers): each member the profile requires gives one finding.
struct ServerMetadataChecks {
    let wire: AuthorizationServerMetadataWire
    /// The issuer the PDS names.
    let issuer: String
    /// The PDS's resource identifier.
    let pds: String
    /// The scope the sign-in asks for.
    let scope: String
    let policy: DestinationPolicy

    private static let operatorFix = "The authorization server's operator must correct its metadata."

    var findings: [Finding] {
        [
            issuerCheck, pushedRequests, dpop, pkce, issParameter, clientAuthentication, clientIDDocuments, scopes,
            prompts, endpoints, protectedResources,
        ]
    }

    /// The pushed authorization request endpoint, when PAR is required and the endpoint is usable.
    var pushedRequestEndpoint: URL? {
        guard wire.requirePushedAuthorizationRequests == true else { return nil }
        return try? endpoint(wire.pushedAuthorizationRequestEndpoint).get()
    }

    private var issuerCheck: Finding {
        guard let stated = wire.issuer else {
            return .fail(
                "as-metadata-issuer",
                "“issuer” is missing",
                rule: Rule.issuer,
                fix: Self.operatorFix,
                who: .server
            )
        }
        guard stated == issuer else {
            return .fail(
                "as-metadata-issuer",
                "“issuer” is \(stated), but the PDS names \(issuer) and the metadata was fetched there",
                rule: Rule.issuer,
                fix: "The metadata's “issuer” must be identical to the URL it is served under, and to the entry in the "
                    + "PDS's authorization_servers; the server's operator must make them one.",
                who: .server
            )
        }
        return .pass("as-metadata-issuer", "“issuer” is \(stated), as the PDS names it", rule: Rule.issuer)
    }

    private var pushedRequests: Finding {
        guard wire.requirePushedAuthorizationRequests == true else {
            return .fail(
                "as-metadata-par",
                "“require_pushed_authorization_requests” is \(Self.text(wire.requirePushedAuthorizationRequests))",
                rule: Rule.pushedRequests,
                fix: "The AT Protocol profile requires PAR: the metadata must say true. " + Self.operatorFix,
                who: .server
            )
        }
        switch endpoint(wire.pushedAuthorizationRequestEndpoint) {
        case .success(let url):
            return .pass("as-metadata-par", "PAR is required, at \(url.absoluteString)", rule: Rule.pushedRequests)
        case .failure(let problem):
            return .fail(
                "as-metadata-par",
                "“pushed_authorization_request_endpoint”: \(problem.reason)",
                rule: Rule.pushedRequests,
                fix: Self.operatorFix,
                who: .server
            )
        }
    }

    private var dpop: Finding {
        listCheck(
            "as-metadata-dpop",
            wire.dpopSigningAlgValuesSupported,
            member: "dpop_signing_alg_values_supported",
            required: "ES256",
            rule: Rule.dpopAlgorithms
        )
    }

    private var pkce: Finding {
        listCheck(
            "as-metadata-pkce",
            wire.codeChallengeMethodsSupported,
            member: "code_challenge_methods_supported",
            required: "S256",
            rule: Rule.pkce
        )
    }

    private var issParameter: Finding {
        guard wire.authorizationResponseIssParameterSupported == true else {
            let value = Self.text(wire.authorizationResponseIssParameterSupported)
            return .fail(
                "as-metadata-iss",
                "“authorization_response_iss_parameter_supported” is \(value)",
                rule: Rule.issParameter,
                fix: "The server must send “iss” with every authorization response and say so; without it a client "
                    + "cannot tell which server answered (mix-up attacks). " + Self.operatorFix,
                who: .server
            )
        }
        return .pass("as-metadata-iss", "authorization responses carry “iss”", rule: Rule.issParameter)
    }

    private var clientAuthentication: Finding {
        let methods = wire.tokenEndpointAuthMethodsSupported ?? []
        let listed = "“token_endpoint_auth_methods_supported” is \(Self.text(wire.tokenEndpointAuthMethodsSupported))"
        guard methods.contains("none") else {
            return .fail(
                "as-metadata-client-auth",
                listed,
                rule: Rule.clientAuthentication,
                fix: "Public clients (native apps, this CLI) authenticate with “none”: the server must list it. "
                    + Self.operatorFix,
                who: .server
            )
        }
        guard methods.contains("private_key_jwt") else {
            return .warn(
                "as-metadata-client-auth",
                listed,
                rule: Rule.clientAuthentication,
                fix: "Public clients sign in, but confidential clients (private_key_jwt) cannot; the profile expects "
                    + "both. " + Self.operatorFix,
                who: .server
            )
        }
        let algorithms = wire.tokenEndpointAuthSigningAlgValuesSupported ?? []
        guard algorithms.contains("ES256") else {
            return .warn(
                "as-metadata-client-auth",
                "“token_endpoint_auth_signing_alg_values_supported” is "
                    + Self.text(wire.tokenEndpointAuthSigningAlgValuesSupported),
                rule: Rule.clientAuthentication,
                fix: "Confidential clients sign their assertions with ES256; the server must list it. "
                    + Self.operatorFix,
                who: .server
            )
        }
        return .pass("as-metadata-client-auth", "none and private_key_jwt (ES256)", rule: Rule.clientAuthentication)
    }

    private var clientIDDocuments: Finding {
        guard wire.clientIDMetadataDocumentSupported == true else {
            return .fail(
                "as-metadata-client-id-documents",
                "“client_id_metadata_document_supported” is \(Self.text(wire.clientIDMetadataDocumentSupported))",
                rule: Rule.clientIDDocuments,
                fix: "AT Protocol clients are identified by the URL of their metadata document; the server must "
                    + "accept them and say so. " + Self.operatorFix,
                who: .server
            )
        }
        return .pass(
            "as-metadata-client-id-documents",
            "client ID metadata documents are accepted",
            rule: Rule.clientIDDocuments
        )
    }

    private var scopes: Finding {
        let supported = wire.scopesSupported ?? []
        guard supported.contains("atproto") else {
            return .fail(
                "as-metadata-scopes",
                "“scopes_supported” is \(Self.text(wire.scopesSupported)), without atproto",
                rule: Rule.scopes,
                fix: Self.operatorFix,
                who: .server
            )
        }
        let unlisted = scope.split(separator: " ").map(String.init)
            .filter { $0.hasPrefix("transition:") && !supported.contains($0) }
        guard unlisted.isEmpty else {
            return .warn(
                "as-metadata-scopes",
                "the server does not list \(unlisted.joined(separator: ", ")) in “scopes_supported” "
                    + "(\(supported.joined(separator: " ")))",
                rule: Rule.scopes,
                fix: "Ask for permissions the server offers: granular permission scopes, or the transition scopes "
                    + "it lists.",
                who: .app
            )
        }
        return .pass("as-metadata-scopes", "scopes_supported: \(supported.joined(separator: " "))", rule: Rule.scopes)
    }

    private var prompts: Finding {
        guard let values = wire.promptValuesSupported else {
            return .warn(
                "as-metadata-prompt",
                "“prompt_values_supported” is missing",
                rule: Rule.prompts,
                fix: "Signing in works; signing up (prompt=create) cannot be offered until the server lists its "
                    + "prompt values. " + Self.operatorFix,
                who: .server
            )
        }
        return .pass("as-metadata-prompt", "prompt values: \(values.joined(separator: ", "))", rule: Rule.prompts)
    }

    /// Each endpoint usable and on the issuer's origin, and a revocation endpoint (RFC 8414 §2).
    ///
    /// An endpoint on another origin works but is unusual (atproto.com/specs/oauth, Security Concerns); it and a
    /// missing revocation endpoint are reported together. The PAR endpoint's own problems are `as-metadata-par`'s:
    /// here only its origin is compared.
    private var endpoints: Finding {
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
                    "as-metadata-endpoints",
                    "“\(member)”: \(problem.reason)",
                    rule: Rule.endpoints,
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
                "as-metadata-endpoints",
                seen.joined(separator: "; "),
                rule: Rule.endpoints,
                fix: fixes.joined(separator: " "),
                who: .server
            )
        }
        return .pass("as-metadata-endpoints", "every endpoint is on \(issuer)", rule: Rule.endpoints)
    }

    private var protectedResources: Finding {
        guard let listed = wire.protectedResources else {
            return .pass(
                "as-protected-resources",
                "the server does not list its protected resources",
                rule: Rule.protectedResources
            )
        }
        guard listed.contains(pds) else {
            return .fail(
                "as-protected-resources",
                "“protected_resources” does not include the PDS \(pds)",
                rule: Rule.protectedResources,
                fix: "The authorization server must list the PDS among its protected resources, or the PDS must name "
                    + "its real authorization server; their operator must fix it.",
                who: .server
            )
        }
        return .pass("as-protected-resources", "“protected_resources” includes \(pds)", rule: Rule.protectedResources)
    }

    private func listCheck(
        _ check: String,
        _ values: [String]?,
        member: String,
        required: String,
        rule: String
    ) -> Finding {
        guard let values, values.contains(required) else {
            return .fail(
                check,
                "“\(member)” is \(Self.text(values)), without \(required)",
                rule: rule,
                fix: "The AT Protocol profile requires \(required). " + Self.operatorFix,
                who: .server
            )
        }
        return .pass(check, "\(member): \(values.joined(separator: ", "))", rule: rule)
    }

    private struct Problem: Error {
        var reason: String
    }

    /// An endpoint member: an https URL without a fragment on a usable host (http loopback in development mode).
    private func endpoint(_ text: String?) -> Result<URL, Problem> {
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

    private static func text(_ value: Bool?) -> String { value.map { $0 ? "true" : "false" } ?? "missing" }

    private static func text(_ values: [String]?) -> String {
        values.map { "[\($0.joined(separator: ", "))]" } ?? "missing"
    }
}
