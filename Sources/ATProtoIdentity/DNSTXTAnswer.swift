/// Reads the TXT records out of a raw DNS answer message (RFC 1035 §4.1, §3.3.14), checking every bound.
///
/// `package` so the tests can feed it crafted messages; not part of the public API.
package enum DNSTXTAnswer {
    /// The answer is malformed.
    package struct Malformed: Error, Sendable, Hashable {
        /// Where the message breaks.
        package let reason: String
    }

    /// The TXT record type.
    static let txtType: UInt16 = 16
    /// The Internet class.
    static let internetClass: UInt16 = 1

    /// Returns each TXT record of the answer section, its character-strings joined, decoded as UTF-8.
    ///
    /// Records of other types (such as a CNAME on the way) are skipped; a record that is not UTF-8 is dropped.
    package static func records(in message: [UInt8]) throws(Malformed) -> [String] {
        var reader = Reader(bytes: message)
        _ = try reader.uint16()  // id
        _ = try reader.uint16()  // flags
        let questions = try reader.uint16()
        let answers = try reader.uint16()
        _ = try reader.uint16()  // authority records
        _ = try reader.uint16()  // additional records
        for _ in 0..<questions {
            try reader.skipName()
            try reader.skip(4)  // type, class
        }
        var records: [String] = []
        for _ in 0..<answers {
            try reader.skipName()
            let type = try reader.uint16()
            let recordClass = try reader.uint16()
            try reader.skip(4)  // TTL
            let length = Int(try reader.uint16())
            let data = try reader.take(length)
            guard type == txtType, recordClass == internetClass else { continue }
            if let text = try characterStrings(data) { records.append(text) }
        }
        return records
    }

    /// Joins the length-prefixed character-strings of one TXT record's data.
    private static func characterStrings(_ data: ArraySlice<UInt8>) throws(Malformed) -> String? {
        var joined: [UInt8] = []
        var index = data.startIndex
        while index < data.endIndex {
            let length = Int(data[index])
            let start = index + 1
            guard start + length <= data.endIndex else { throw Malformed(reason: "a TXT string overruns its record") }
            joined += data[start..<(start + length)]
            index = start + length
        }
        return String(validating: joined, as: UTF8.self)
    }

    /// A bounds-checked cursor over the message.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func take(_ count: Int) throws(Malformed) -> ArraySlice<UInt8> {
            guard count >= 0, offset + count <= bytes.count else { throw Malformed(reason: "the message is truncated") }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }

        mutating func skip(_ count: Int) throws(Malformed) { _ = try take(count) }

        mutating func uint16() throws(Malformed) -> UInt16 {
            let pair = try take(2)
            return UInt16(pair[pair.startIndex]) << 8 | UInt16(pair[pair.startIndex + 1])
        }

        /// Skips a domain name: labels ending in a zero byte, or in a two-byte compression pointer.
        mutating func skipName() throws(Malformed) {
            for _ in 0..<128 {
                let label = try take(1)
                let length = label[label.startIndex]
                switch length & 0xC0 {
                case 0x00:
                    if length == 0 { return }
                    try skip(Int(length))
                case 0xC0:
                    try skip(1)
                    return
                default:
                    throw Malformed(reason: "a name uses an unknown label type")
                }
            }
            throw Malformed(reason: "a name has too many labels")
        }
    }
}
