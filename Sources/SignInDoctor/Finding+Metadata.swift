import OAuthMetadata
import OAuthSessionManager

extension Finding {
    /// The finding of one of the engine's metadata checks, which a sign-in throws when it fails.
    init(_ finding: MetadataFinding) {
        let status: Status =
            switch finding.outcome {
            case .pass: .pass
            case .warn: .warn
            case .fail: .fail
            }
        let who: Party? =
            switch finding.who {
            case .user?: .user
            case .app?: .app
            case .server?: .server
            case nil: nil
            }
        self.init(
            check: finding.check,
            status: status,
            seen: finding.seen,
            rule: finding.rule,
            fix: finding.fix,
            who: who
        )
    }
}

extension Finding {
    /// A metadata check passed, under its name and rule.
    static func pass(_ check: MetadataCheck, _ seen: String) -> Finding {
        .pass(check.rawValue, seen, rule: check.rule)
    }

    /// A metadata check failed, under its name and rule.
    static func fail(_ check: MetadataCheck, _ seen: String, fix: String, who: Party) -> Finding {
        .fail(check.rawValue, seen, rule: check.rule, fix: fix, who: who)
    }
}
