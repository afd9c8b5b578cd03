/// Writes JSON string literals by hand, for the few fixed-shape JSON objects on the hot path (DPoP proofs).
enum JSONString {
    /// Appends `value` as a quoted, escaped JSON string (RFC 8259 §7).
    static func append(_ value: String, to output: inout [UInt8]) {
        output.append(0x22)
        for byte in value.utf8 {
            if let escaped = escape(byte) {
                output.append(contentsOf: escaped)
            } else {
                output.append(byte)
            }
        }
        output.append(0x22)
    }

    /// Appends an object of string members, in the order given, with no white space.
    static func appendObject(_ members: [(name: String, value: String)], to output: inout [UInt8]) {
        output.append(0x7B)
        for (index, member) in members.enumerated() {
            if index > 0 { output.append(0x2C) }
            append(member.name, to: &output)
            output.append(0x3A)
            append(member.value, to: &output)
        }
        output.append(0x7D)
    }

    /// Writes `value` as a quoted, escaped JSON string (RFC 8259 §7); at most ``maximumLength(of:)`` bytes.
    static func write(_ value: String, to writer: inout ByteWriter) {
        var value = value
        writer.append(UInt8(ascii: "\""))
        value.withUTF8 { bytes in
            var clean = 0  // The start of the run of bytes that need no escape.
            for index in bytes.indices {
                guard let escaped = escape(bytes[index]) else { continue }
                writer.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[clean..<index])))
                escaped.withUnsafeBytes { writer.append($0) }
                clean = index + 1
            }
            writer.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[clean...])))
        }
        writer.append(UInt8(ascii: "\""))
    }

    /// The most bytes ``write(_:to:)`` writes for a value: quotes, and six bytes (`\u00XX`) per input byte.
    static func maximumLength(of value: String) -> Int {
        2 + 6 * value.utf8.count
    }

    /// The escape sequence of a byte that JSON does not allow bare in a string, or `nil` for one it allows.
    private static func escape(_ byte: UInt8) -> [UInt8]? {
        switch byte {
        case 0x22: [0x5C, 0x22]
        case 0x5C: [0x5C, 0x5C]
        case 0x0A: [0x5C, 0x6E]
        case 0x0D: [0x5C, 0x72]
        case 0x09: [0x5C, 0x74]
        case 0x00..<0x20: [0x5C, 0x75, 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
        default: nil
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
