package import Foundation
import HTTPTransport

/// The member-by-member checks of an authorization server's metadata (RFC 8414 §2–§3; atproto.com/specs/oauth,
/// Authorization Servers): each rule the profile sets gives one finding, in a fixed order.
///
/// A sign-in throws the first failure (``AuthorizationServerMetadata/init(json:issuer:resource:allowHTTPLoopback:)``);
/// the doctor reports every finding under its check's name.
package struct AuthorizationServerMetadataCheck: Sendable {
    let wire: AuthorizationServerMetadataWire
    /// The issuer the metadata was fetched for, as the PDS names it.
    let issuer: String
    /// The PDS's resource identifier; `nil` leaves `protected_resources` unchecked.
    let pds: String?
    /// The scope the sign-in asks for; `nil` leaves the transition scopes unchecked.
    let scope: String?
    let policy: DestinationPolicy

    /// Checks `wire`, fetched for `issuer`, on behalf of the PDS `pds` and a sign-in asking for `scope`.
    package init(
        _ wire: AuthorizationServerMetadataWire,
        issuer: String,
        pds: String? = nil,
        scope: String? = nil,
        allowHTTPLoopback: Bool = false
    ) {
        self.wire = wire
        self.issuer = issuer
        self.pds = pds
        self.scope = scope
        self.policy = DestinationPolicy(allowHTTPLoopback: allowHTTPLoopback)
    }

    static let operatorFix = "The authorization server's operator must correct its metadata."

    /// Every finding, in the order of ``MetadataCheck``; `as-protected-resources` only when the PDS is known.
    package var findings: [MetadataFinding] {
        [
            issuerCheck, pushedRequests, dpop, pkce, grants, issParameter, clientAuthentication, clientIDDocuments,
            scopes, prompts, endpoints,
        ] + (protectedResources.map { [$0] } ?? [])
    }

    /// The pushed authorization request endpoint, when PAR is required and the endpoint is usable.
    package var pushedRequestEndpoint: URL? {
        guard wire.requirePushedAuthorizationRequests == true else { return nil }
        return try? endpoint(wire.pushedAuthorizationRequestEndpoint).get()
    }

    /// An endpoint member, when it is usable (https, no fragment, a public host; http loopback in development).
    package func usableEndpoint(_ text: String?) -> URL? {
        try? endpoint(text).get()
    }

    private var issuerCheck: MetadataFinding {
        guard let stated = wire.issuer else {
            return .fail(
                .issuer,
                "“issuer” is missing",
                member: "issuer",
                fix: Self.operatorFix,
                who: .server
            )
        }
        guard stated == issuer else {
            return .fail(
                .issuer,
                "“issuer” is \(stated), but the PDS names \(issuer) and the metadata was fetched there",
                member: "issuer",
                fix: "The metadata's “issuer” must be identical to the URL it is served under, and to the entry in the "
                    + "PDS's authorization_servers; the server's operator must make them one.",
                who: .server
            )
        }
        return .pass(.issuer, "“issuer” is \(stated), as the PDS names it")
    }

    private var pushedRequests: MetadataFinding {
        if let failure = Self.requiredTrue(
            wire.requirePushedAuthorizationRequests,
            .pushedRequests,
            member: "require_pushed_authorization_requests",
            fix: "The AT Protocol profile requires PAR: the metadata must say true. " + Self.operatorFix
        ) {
            return failure
        }
        switch endpoint(wire.pushedAuthorizationRequestEndpoint) {
        case .success(let url):
            return .pass(.pushedRequests, "PAR is required, at \(url.absoluteString)")
        case .failure(let problem):
            return .fail(
                .pushedRequests,
                "“pushed_authorization_request_endpoint”: \(problem.reason)",
                member: "pushed_authorization_request_endpoint",
                fix: Self.operatorFix,
                who: .server
            )
        }
    }

    private var dpop: MetadataFinding {
        listCheck(
            .dpopAlgorithms,
            wire.dpopSigningAlgValuesSupported,
            member: "dpop_signing_alg_values_supported",
            required: "ES256"
        )
    }

    private var pkce: MetadataFinding {
        listCheck(
            .pkce,
            wire.codeChallengeMethodsSupported,
            member: "code_challenge_methods_supported",
            required: "S256"
        )
    }

    /// `code` among the response types, and `authorization_code` and `refresh_token` among the grant types (which
    /// RFC 8414 §2 takes to be `authorization_code` and `implicit` when the member is missing).
    private var grants: MetadataFinding {
        let required = [
            ("response_types_supported", wire.responseTypesSupported, "code"),
            ("grant_types_supported", wire.grantTypesSupported, "authorization_code"),
            ("grant_types_supported", wire.grantTypesSupported, "refresh_token"),
        ]
        for (member, values, value) in required {
            let finding = listCheck(
                .grants,
                values,
                member: member,
                required: value
            )
            if finding.outcome == .fail { return finding }
        }
        return .pass(.grants, "the authorization code flow, with refresh tokens")
    }

    private var issParameter: MetadataFinding {
        Self.requiredTrue(
            wire.authorizationResponseIssParameterSupported,
            .issParameter,
            member: "authorization_response_iss_parameter_supported",
            fix: "The server must send “iss” with every authorization response and say so; without it a client "
                + "cannot tell which server answered (mix-up attacks). " + Self.operatorFix
        ) ?? .pass(.issParameter, "authorization responses carry “iss”")
    }

    private var clientAuthentication: MetadataFinding {
        let methods = wire.tokenEndpointAuthMethodsSupported ?? []
        let listed = "“token_endpoint_auth_methods_supported” is \(Self.text(wire.tokenEndpointAuthMethodsSupported))"
        guard methods.contains("none") else {
            return .fail(
                .clientAuthentication,
                listed + ", without none",
                member: "token_endpoint_auth_methods_supported",
                fix: "Public clients (native apps, this CLI) authenticate with “none”: the server must list it. "
                    + Self.operatorFix,
                who: .server
            )
        }
        guard methods.contains("private_key_jwt") else {
            return .warn(
                .clientAuthentication,
                listed,
                fix: "Public clients sign in, but confidential clients (private_key_jwt) cannot; the profile expects "
                    + "both. " + Self.operatorFix,
                who: .server
            )
        }
        let algorithms = wire.tokenEndpointAuthSigningAlgValuesSupported ?? []
        guard algorithms.contains("ES256") else {
            return .warn(
                .clientAuthentication,
                "“token_endpoint_auth_signing_alg_values_supported” is "
                    + Self.text(wire.tokenEndpointAuthSigningAlgValuesSupported),
                fix: "Confidential clients sign their assertions with ES256; the server must list it. "
                    + Self.operatorFix,
                who: .server
            )
        }
        return .pass(.clientAuthentication, "none and private_key_jwt (ES256)")
    }

    private var clientIDDocuments: MetadataFinding {
        Self.requiredTrue(
            wire.clientIDMetadataDocumentSupported,
            .clientIDDocuments,
            member: "client_id_metadata_document_supported",
            fix: "AT Protocol clients are identified by the URL of their metadata document; the server must "
                + "accept them and say so. " + Self.operatorFix
        )
            ?? .pass(
                .clientIDDocuments,
                "client ID metadata documents are accepted"
            )
    }

    private var scopes: MetadataFinding {
        let supported = wire.scopesSupported ?? []
        guard supported.contains("atproto") else {
            return .fail(
                .scopes,
                "“scopes_supported” is \(Self.text(wire.scopesSupported)), without atproto",
                member: "scopes_supported",
                fix: Self.operatorFix,
                who: .server
            )
        }
        let unlisted = (scope ?? "").split(separator: " ").map(String.init)
            .filter { $0.hasPrefix("transition:") && !supported.contains($0) }
        guard unlisted.isEmpty else {
            return .warn(
                .scopes,
                "the server does not list \(unlisted.joined(separator: ", ")) in “scopes_supported” "
                    + "(\(supported.joined(separator: " ")))",
                fix: "Ask for permissions the server offers: granular permission scopes, or the transition scopes "
                    + "it lists.",
                who: .app
            )
        }
        return .pass(.scopes, "scopes_supported: \(supported.joined(separator: " "))")
    }

    private var prompts: MetadataFinding {
        guard let values = wire.promptValuesSupported else {
            return .warn(
                .prompts,
                "“prompt_values_supported” is missing",
                fix: "Signing in works; signing up (prompt=create) cannot be offered until the server lists its "
                    + "prompt values. " + Self.operatorFix,
                who: .server
            )
        }
        return .pass(.prompts, "prompt values: \(values.joined(separator: ", "))")
    }

    private func listCheck(
        _ check: MetadataCheck,
        _ values: [String]?,
        member: String,
        required: String
    ) -> MetadataFinding {
        guard let values, values.contains(required) else {
            return .fail(
                check,
                "“\(member)” is \(Self.text(values)), without \(required)",
                member: member,
                fix: "The AT Protocol profile requires \(required). " + Self.operatorFix,
                who: .server
            )
        }
        return .pass(check, "\(member): \(values.joined(separator: ", "))")
    }

    static func text(_ value: Bool?) -> String { value.map { $0 ? "true" : "false" } ?? "missing" }

    /// The server's failure when the flag `member`, which the profile requires, is not `true`; `nil` when it is.
    static func requiredTrue(
        _ value: Bool?,
        _ check: MetadataCheck,
        member: String,
        fix: String
    ) -> MetadataFinding? {
        guard value != true else { return nil }
        return .fail(check, "“\(member)” is \(text(value))", member: member, fix: fix, who: .server)
    }

    static func text(_ values: [String]?) -> String {
        values.map { "[\($0.joined(separator: ", "))]" } ?? "missing"
    }
}
