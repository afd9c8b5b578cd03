import Foundation
import OAuthMetadata
import OAuthSessionManager

/// What the metadata half of the chain found: the findings, and what the probe needs.
struct ServerExamination: Sendable {
    var findings: [Finding] = []
    /// The authorization server's issuer, as the PDS names it.
    var issuer: String?
    /// The pushed authorization request endpoint, when the metadata gives a usable one.
    var pushedRequestEndpoint: URL?

    /// Every check of the metadata, in order, with its rule.
    static let checks = MetadataCheck.allCases.map { (name: $0.rawValue, rule: $0.rule) }

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
