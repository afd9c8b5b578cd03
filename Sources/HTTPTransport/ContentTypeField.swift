import Foundation

/// What a `Content-Type` field names (RFC 9110 §8.3.1), read one way wherever a body's type decides something.
package enum ContentTypeField {
    /// The media type without parameters and in lower case, since type and subtype are case-insensitive
    /// (`image/png` for `Image/PNG; q=1`); `nil` for no field.
    package static func essence(_ field: String?) -> String? {
        guard let field else { return nil }
        let type = field.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Whether the field names JSON: `application/json` or a `+json` type such as `application/ld+json`, in any
    /// case and with any parameters (RFC 6839 §3.1).
    package static func isJSON(_ field: String?) -> Bool {
        guard let type = essence(field) else { return false }
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }
}
