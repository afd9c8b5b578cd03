/// The gateway token as a request carries it: `Authorization: Bearer <token>` (RFC 6750 §2.1), the scheme's name
/// in any case (RFC 9110 §11.1).
enum BearerToken {
    /// Whether `values`, the request's `Authorization` fields, are exactly one `Bearer` credential equal to
    /// `expected`, compared in time that does not depend on where they differ.
    static func matches(_ values: [String], expected: String) -> Bool {
        guard let presented = credential(values) else { return false }
        return equalInConstantTime(Array(presented.utf8), Array(expected.utf8))
    }

    /// The credential of `values`, the request's `Authorization` fields, when they are exactly one `Bearer`
    /// credential.
    static func credential(_ values: [String]) -> String? {
        guard values.count == 1, let value = values.first else { return nil }
        // A b64token holds no whitespace (RFC 6750 §2.1): the field is the scheme, spaces, the token.
        let parts = value.split { $0 == " " || $0 == "\t" }
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }

    /// Compares every byte of `presented` whatever the first difference, so the time taken says nothing about
    /// the expected token but its length.
    static func equalInConstantTime(_ presented: [UInt8], _ expected: [UInt8]) -> Bool {
        guard !expected.isEmpty else { return false }
        var difference: UInt8 = presented.count == expected.count ? 0 : 1
        for index in presented.indices {
            difference |= presented[index] ^ expected[index % expected.count]
        }
        return difference == 0
    }
}
