import Foundation

/// Syntax checks of atproto identifiers used by the repository endpoints, and record-key generation.
enum XRPCSyntax {
    /// Whether a string is an NSID such as `app.bsky.feed.post`: at least three dot-separated segments, the last
    /// one letters and digits starting with a letter (atproto NSID spec, simplified).
    static func isNSID(_ value: String) -> Bool {
        let segments = value.split(separator: ".", omittingEmptySubsequences: false)
        guard value.utf8.count <= 317, segments.count >= 3 else { return false }
        for (index, segment) in segments.enumerated() {
            guard !segment.isEmpty, segment.utf8.count <= 63, segment.first?.isASCII == true else { return false }
            if index == segments.count - 1 {
                guard segment.first?.isLetter == true,
                    segment.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
                else { return false }
            } else {
                guard segment.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }),
                    segment.first != "-", segment.last != "-"
                else { return false }
            }
        }
        return segments[0].first?.isLetter == true
    }

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
