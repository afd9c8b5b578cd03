/// The outcome of one metadata rule: what was seen, the rule, and for a problem what to do and who must do it.
///
/// The checks of protected resource metadata (RFC 9728 §3) and authorization server metadata (RFC 8414 §2–§3) return
/// these; a sign-in throws the first failure, and the doctor lists them all.
package struct MetadataFinding: Sendable, Hashable {
    /// How a check came out.
    package enum Outcome: String, Sendable, Hashable {
        /// The rule is met.
        case pass
        /// A gap that does not stop a sign-in.
        case warn
        /// The rule is broken: a sign-in stops.
        case fail
    }

    /// Who can fix a problem.
    package enum Party: String, Sendable, Hashable {
        /// The person signing in.
        case user
        /// The app signing in: its client metadata and the scope it asks for.
        case app
        /// The operator of the PDS or authorization server.
        case server
    }

    /// The check's stable kebab-case name, such as `as-metadata-par`; the doctor reports it under that name.
    package var check: String
    /// How it came out.
    package var outcome: Outcome
    /// What was seen, in words; names the member.
    package var seen: String
    /// The rule followed, by section (the check's ``MetadataCheck/rule``).
    package var rule: String
    /// The metadata member the problem is in, such as `issuer`, when there is one.
    package var member: String?
    /// What to do, for a warning or a failure.
    package var fix: String?
    /// Who must do it, for a warning or a failure.
    package var who: Party?

    /// A rule met.
    static func pass(_ check: MetadataCheck, _ seen: String) -> MetadataFinding {
        MetadataFinding(check: check.rawValue, outcome: .pass, seen: seen, rule: check.rule)
    }

    /// A rule broken in `member`.
    static func fail(
        _ check: MetadataCheck,
        _ seen: String,
        member: String?,
        fix: String,
        who: Party = .server
    ) -> MetadataFinding {
        MetadataFinding(
            check: check.rawValue,
            outcome: .fail,
            seen: seen,
            rule: check.rule,
            member: member,
            fix: fix,
            who: who
        )
    }

    /// A gap that does not stop a sign-in.
    static func warn(_ check: MetadataCheck, _ seen: String, fix: String, who: Party) -> MetadataFinding {
        MetadataFinding(check: check.rawValue, outcome: .warn, seen: seen, rule: check.rule, fix: fix, who: who)
    }

    /// What a sign-in's error says: what was seen, then the rule it breaks.
    package var reason: String { "\(seen) (\(rule))" }
}

extension [MetadataFinding] {
    /// The first rule broken, in the order the checks run.
    package var firstFailure: MetadataFinding? { first { $0.outcome == .fail } }
}
