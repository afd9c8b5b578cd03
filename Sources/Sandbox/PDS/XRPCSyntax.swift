import Foundation

/// The record-key syntax of the repository endpoints (atproto.com/specs/record-key), and record-key generation.
enum XRPCSyntax {
    /// Whether a string is a record key: 1–512 characters of `A–Z a–z 0–9 . - _ : ~`, not `.` or `..`.
    static func isRecordKey(_ value: String) -> Bool {
        guard (1...512).contains(value.utf8.count), value != ".", value != ".." else { return false }
        return value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: ":"), UInt8(ascii: "~"):
                true
            default: false
            }
        }
    }

    /// A TID record key (13 characters of base32-sortable) from microseconds since 1970 and a clock id.
    static func tid(micros: UInt64, clockID: UInt64) -> String {
        let alphabet = Array("234567abcdefghijklmnopqrstuvwxyz".utf8)
        var value = (micros & 0x1F_FFFF_FFFF_FFFF) << 10 | (clockID & 0x3FF)
        var characters = [UInt8](repeating: 0, count: 13)
        for index in (0..<13).reversed() {
            characters[index] = alphabet[Int(value & 0x1F)]
            value >>= 5
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
