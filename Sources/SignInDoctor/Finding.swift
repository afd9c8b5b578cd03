import WireFormat

/// The outcome of one check of a sign-in's chain: what was seen, the rule it follows, and for a problem what to do
/// and who must do it.
public struct Finding: Sendable, Hashable, Encodable {
    /// How a check came out.
    public enum Status: String, Sendable, Hashable, Encodable {
        /// The rule is met.
        case pass
        /// Something works but is likely to cause trouble; it does not fail the diagnosis.
        case warn
        /// The rule is broken: a sign-in fails, or would.
        case fail
        /// The check could not run, such as DNS when a handle resolution service is configured.
        case skip
    }

    /// Who can fix a problem.
    public enum Party: String, Sendable, Hashable, Encodable {
        /// The person signing in, who owns the account, its handle and this machine.
        case user
        /// The app signing in: its client metadata and the scope it asks for.
        case app
        /// The operator of the PDS or authorization server.
        case server
    }

    /// A stable kebab-case name, such as `handle-dns` or `as-metadata-par`.
    public var check: String
    /// How it came out.
    public var status: Status
    /// What was seen, without any secret, on one line: a server's text has its line breaks and controls removed.
    public var seen: String
    /// The rule followed: an RFC section or an atproto.com/specs section.
    public var rule: String
    /// What to do, for a warning or a failure; `nil` otherwise.
    public var fix: String?
    /// Who must do it, for a warning or a failure; `nil` otherwise.
    public var who: Party?

    /// The longest ``seen`` kept, in characters; a longer one is cut and ends in “…”.
    static let maximumSeenLength = 1000

    /// Creates a finding; `fix` and `who` are kept only for a warning or a failure.
    ///
    /// `seen` often quotes a server, so it is made one line without controls: a line break in a metadata value
    /// cannot add a line to the report that looks like another check's.
    public init(check: String, status: Status, seen: String, rule: String, fix: String? = nil, who: Party? = nil) {
        self.check = check
        self.status = status
        self.seen = TerminalText.sanitized(seen, limit: Self.maximumSeenLength)
        self.rule = rule
        let needsRemedy = status == .warn || status == .fail
        self.fix = needsRemedy ? fix : nil
        self.who = needsRemedy ? who : nil
    }

    private enum CodingKeys: String, CodingKey {
        case check, status, seen, rule, fix, who
    }

    /// Encodes every member, `fix` and `who` as `null` when there is nothing to do.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(check, forKey: .check)
        try container.encode(status, forKey: .status)
        try container.encode(seen, forKey: .seen)
        try container.encode(rule, forKey: .rule)
        try container.encode(fix, forKey: .fix)
        try container.encode(who, forKey: .who)
    }

    /// A rule met.
    static func pass(_ check: String, _ seen: String, rule: String) -> Finding {
        Finding(check: check, status: .pass, seen: seen, rule: rule)
    }

    /// A check that could not run, and why.
    static func skip(_ check: String, _ why: String, rule: String) -> Finding {
        Finding(check: check, status: .skip, seen: why, rule: rule)
    }

    /// A rule broken.
    static func fail(_ check: String, _ seen: String, rule: String, fix: String, who: Party) -> Finding {
        Finding(check: check, status: .fail, seen: seen, rule: rule, fix: fix, who: who)
    }

    /// A likely problem that does not fail the diagnosis.
    static func warn(_ check: String, _ seen: String, rule: String, fix: String, who: Party) -> Finding {
        Finding(check: check, status: .warn, seen: seen, rule: rule, fix: fix, who: who)
    }
}

/// Every finding of one diagnosis, in the order the chain is walked.
public struct Diagnosis: Sendable, Hashable, Encodable {
    /// What was diagnosed, as given.
    public var target: String
    /// The findings, one per check.
    public var checks: [Finding]
    /// The checks the deadline left undone, in order; each is also among ``checks``, skipped as not done.
    public var notDone: [String]

    /// Creates a diagnosis.
    public init(target: String, checks: [Finding], notDone: [String] = []) {
        self.target = target
        self.checks = checks
        self.notDone = notDone
    }

    /// Whether any check failed; warnings do not count.
    public var hasFailure: Bool { checks.contains { $0.status == .fail } }

    /// Whether every check was done before the deadline.
    public var isComplete: Bool { notDone.isEmpty }

    /// The checks that failed, in order.
    public var failures: [Finding] { checks.filter { $0.status == .fail } }

    /// The finding of a check, by name.
    public func finding(_ check: String) -> Finding? { checks.first { $0.check == check } }
}
