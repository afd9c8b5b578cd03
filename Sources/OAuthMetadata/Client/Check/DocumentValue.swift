/// A JSON value read strictly: `true` is never the number 1, and a string is never a number.
enum DocumentValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([DocumentValue])
    case object([String: DocumentValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([DocumentValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: DocumentValue].self))
        }
    }

    /// Whether the value is `null`, which the reference server takes for an absent member.
    var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// The string, when the value is one.
    var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The value's type in words, such as `a number`; `true` and `false` are named.
    var summary: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
