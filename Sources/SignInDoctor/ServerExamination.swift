import Foundation

/// What the metadata half of the chain found: the findings, and what the probe needs.
struct ServerExamination: Sendable {
    var findings: [Finding] = []
    /// The authorization server's issuer, as the PDS names it.
    var issuer: String?
    /// The pushed authorization request endpoint, when the metadata gives a usable one.
    var pushedRequestEndpoint: URL?

    /// Every check of the metadata, in order, with its rule.
    static let checks: [(name: String, rule: String)] = [
        ("resource-metadata", Rule.protectedResource),
        ("as-metadata", Rule.serverMetadata),
        ("as-metadata-issuer", Rule.issuer),
        ("as-metadata-par", Rule.pushedRequests),
        ("as-metadata-dpop", Rule.dpopAlgorithms),
        ("as-metadata-pkce", Rule.pkce),
        ("as-metadata-iss", Rule.issParameter),
        ("as-metadata-client-auth", Rule.clientAuthentication),
        ("as-metadata-client-id-documents", Rule.clientIDDocuments),
        ("as-metadata-scopes", Rule.scopes),
        ("as-metadata-prompt", Rule.prompts),
        ("as-metadata-endpoints", Rule.endpoints),
        ("as-protected-resources", Rule.protectedResources),
    ]

    /// The checks after `check`, skipped for the same reason.
    static func skippedChecks(after check: String? = nil, because why: String) -> [Finding] {
        let start = check.flatMap { name in checks.firstIndex { $0.name == name }.map { $0 + 1 } } ?? 0
        return checks[start...].map { Finding.skip($0.name, why, rule: $0.rule) }
    }

    /// Every check, skipped for the same reason.
    static func skippedChecks(because why: String) -> [Finding] {
        skippedChecks(after: nil, because: why)
    }
}
