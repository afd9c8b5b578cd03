public import ATProtoSyntax

/// An NSID or the wildcard `*`, as the `collection` of `repo` and the `lxm` of `rpc` take
/// (atproto.com/specs/permission, Repo and RPC).
///
/// Partial wildcards such as `com.example.*` do not exist.
public enum NSIDPattern: Sendable, Hashable, CustomStringConvertible {
    /// `*`: every NSID.
    case any
    /// Exactly one NSID.
    case nsid(NSID)

    /// Reads `*` or an NSID; `nil` for anything else.
    public init?(_ text: String) {
        if text == "*" {
            self = .any
        } else if let nsid = try? NSID(validating: text) {
            self = .nsid(nsid)
        } else {
            return nil
        }
    }

    /// Whether the pattern includes `nsid`.
    public func matches(_ nsid: NSID) -> Bool { covers(.nsid(nsid)) }

    /// Whether the pattern includes every NSID that `other` stands for.
    public func covers(_ other: NSIDPattern) -> Bool { self == .any || self == other }

    /// `*` or the NSID.
    public var description: String {
        switch self {
        case .any: "*"
        case .nsid(let nsid): nsid.rawValue
        }
    }

    /// What the parser expects, for error messages.
    static let expected = "an NSID or “*”"

    /// The patterns without repeats, sorted by their text.
    static func sortedUnique(_ patterns: [NSIDPattern]) -> [NSIDPattern] {
        Set(patterns).sorted { $0.description < $1.description }
    }

    /// The patterns sorted without repeats, or just ``any`` when it is among them, since it includes the rest.
    static func normalized(_ patterns: [NSIDPattern]) -> [NSIDPattern] {
        patterns.contains(.any) ? [.any] : sortedUnique(patterns)
    }
}
