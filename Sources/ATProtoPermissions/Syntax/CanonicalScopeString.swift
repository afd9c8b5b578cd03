import WireFormat

/// Writes a permission in its canonical string form (atproto.com/specs/permission, Scope String Syntax).
///
/// The canonical form puts the positional parameter after a colon when it has exactly one value, and otherwise as
/// repeated `name=value` pairs; the caller adds parameters in the resource's fixed order and leaves out those at
/// their default. Values are percent-encoded except for letters, digits and `-._~:/*@,` (and `+` in the positional
/// part, where it never means a space), so `#` is written `%23`.
struct CanonicalScopeString {
    private var resource: String
    private var positional: String?
    private var parameters: [String] = []

    /// Starts the string for `resource`, such as `repo`.
    init(_ resource: String) { self.resource = resource }

    /// Adds the positional parameter: after the colon when there is one value, as repeated pairs otherwise.
    mutating func addPositional(_ name: String, _ values: [String]) {
        if values.count == 1, let value = values.first {
            positional = Self.encode(value, keepPlus: true)
        } else {
            add(name, values)
        }
    }

    /// Adds one `name=value` pair per value.
    mutating func add(_ name: String, _ values: [String]) {
        for value in values { parameters.append("\(name)=\(Self.encode(value, keepPlus: false))") }
    }

    /// The finished string.
    var string: String {
        var text = resource
        if let positional { text += ":" + positional }
        if !parameters.isEmpty { text += "?" + parameters.joined(separator: "&") }
        return text
    }

    private static let unescaped: Set<UInt8> = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/*@,".utf8
    )

    private static func encode(_ value: String, keepPlus: Bool) -> String {
        PercentEncoding.encode(value) { unescaped.contains($0) || (keepPlus && $0 == UInt8(ascii: "+")) }
    }
}
