/// Writes JSON string literals by hand, for the few fixed-shape JSON objects on the hot path (DPoP proofs).
enum JSONString {
    /// Appends `value` as a quoted, escaped JSON string (RFC 8259 §7).
    static func append(_ value: String, to output: inout [UInt8]) {
        output.append(0x22)
        for byte in value.utf8 {
            switch byte {
            case 0x22: output.append(contentsOf: [0x5C, 0x22])
            case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: output.append(contentsOf: [0x5C, 0x72])
            case 0x09: output.append(contentsOf: [0x5C, 0x74])
            case 0x00..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(0x22)
    }

    /// Appends `"name":` to the output.
    static func appendKey(_ name: String, to output: inout [UInt8]) {
        append(name, to: &output)
        output.append(0x3A)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
