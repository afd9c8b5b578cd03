/// An optional member that an encoder writes as `null` when it is absent, where a synthesized `Encodable` leaves the
/// key out: for JSON outputs whose every key is part of a contract.
///
/// ```swift
/// struct Removed: Encodable {
///     var did: String
///     @NullWhenAbsent var handle: String?  // {"did":"…","handle":null}
/// }
/// ```
@propertyWrapper
public struct NullWhenAbsent<Value: Encodable>: Encodable {
    /// The member's value.
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Encodes the value, or `null` when there is none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

extension NullWhenAbsent: Sendable where Value: Sendable {}
extension NullWhenAbsent: Equatable where Value: Equatable {}
extension NullWhenAbsent: Hashable where Value: Hashable {}
