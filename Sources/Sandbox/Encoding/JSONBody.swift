import Foundation

/// JSON in and out of request and response bodies, through `JSONSerialization` (records are free-form JSON).
enum JSONBody {
    /// Serializes a JSON object with sorted keys and unescaped slashes; `nil` for a value that is not JSON.
    static func encode(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
    }

    /// Parses a body that must be one JSON object.
    static func decodeObject(_ data: Data) -> [String: Any]? {
        guard !data.isEmpty else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// Serializes any JSON value (object or array) canonically: sorted keys, no white space.
    static func canonical(_ value: Any) -> Data? {
        guard JSONSerialization.isValidJSONObject(value) else { return nil }
        return try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}
