/// Lowercase base32 without padding (RFC 4648 §6, alphabet `a–z2–7`), the alphabet of `did:plc` identifiers and
/// of CIDs in multibase `b`.
enum Base32 {
    /// The 32 characters, in value order.
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    /// Encodes bytes, without padding.
    static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var output = [UInt8]()
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(alphabet[Int((buffer >> UInt32(bits)) & 0x1F)])
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 {
            output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 0x1F)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
