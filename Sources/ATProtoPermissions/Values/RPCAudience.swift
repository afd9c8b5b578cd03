/// The audience of an `rpc` permission: any service, or one service by reference
/// (atproto.com/specs/permission, RPC).
public enum RPCAudience: Sendable, Hashable, CustomStringConvertible {
    /// `*`: any service.
    case any
    /// One service, such as `did:web:api.bsky.app#bsky_appview`.
    case service(ServiceReference)

    /// Reads `*` or a service reference; `nil` for anything else, including a DID without a `#service` fragment.
    public init?(_ text: String) {
        if text == "*" {
            self = .any
        } else if let service = ServiceReference(rawValue: text) {
            self = .service(service)
        } else {
            return nil
        }
    }

    /// Whether the audience includes every service that `other` stands for.
    public func covers(_ other: RPCAudience) -> Bool { self == .any || self == other }

    /// `*` or the service reference.
    public var description: String {
        switch self {
        case .any: "*"
        case .service(let service): service.rawValue
        }
    }

    /// What the parser expects, for error messages.
    static let expected = "“*” or \(ServiceReference.expected)"
}
