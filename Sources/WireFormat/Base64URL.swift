public import Foundation

/// Base64url without padding (RFC 4648 §5), the encoding of every JOSE segment.
public enum Base64URL {
    /// Encodes bytes as unpadded base64url.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if let encoded = bytes.withContiguousStorageIfAvailable({ encode(UnsafeRawBufferPointer($0)) }) {
            return encoded
        }
        return Array(bytes).withUnsafeBytes { encode($0) }
    }

    /// Encodes the bytes of a buffer as unpadded base64url.
    package static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: encodedCount(bytes.count)) { output in
            encode(bytes, into: output)
            return output.count
        }
    }

    /// The length of the unpadded base64url encoding of `byteCount` bytes.
    package static func encodedCount(_ byteCount: Int) -> Int {
        byteCount / 3 * 4 + (byteCount % 3 == 0 ? 0 : byteCount % 3 + 1)
    }

    /// Writes the unpadded base64url encoding of `bytes` into `output`, which holds exactly
    /// `encodedCount(bytes.count)` bytes.
    package static func encode(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition(output.count == encodedCount(bytes.count), "wrong base64url output size")
        guard !bytes.isEmpty, let source = bytes.baseAddress, let target = output.baseAddress else { return }
        alphabet.withUnsafeBufferPointer { alphabet in
            let whole = bytes.count / 3 * 3
            var read = 0
            var written = 0
            while read < whole {
                let chunk =
                    UInt32(source.load(fromByteOffset: read, as: UInt8.self)) << 16
                    | UInt32(source.load(fromByteOffset: read + 1, as: UInt8.self)) << 8
                    | UInt32(source.load(fromByteOffset: read + 2, as: UInt8.self))
                target[written] = alphabet[Int(chunk >> 18)]
                target[written + 1] = alphabet[Int(chunk >> 12 & 0x3F)]
                target[written + 2] = alphabet[Int(chunk >> 6 & 0x3F)]
                target[written + 3] = alphabet[Int(chunk & 0x3F)]
                read += 3
                written += 4
            }
            switch bytes.count - whole {
            case 1:
                let chunk = UInt32(source.load(fromByteOffset: read, as: UInt8.self)) << 16
                target[written] = alphabet[Int(chunk >> 18)]
                target[written + 1] = alphabet[Int(chunk >> 12 & 0x3F)]
            case 2:
                let chunk =
                    UInt32(source.load(fromByteOffset: read, as: UInt8.self)) << 16
                    | UInt32(source.load(fromByteOffset: read + 1, as: UInt8.self)) << 8
                target[written] = alphabet[Int(chunk >> 18)]
                target[written + 1] = alphabet[Int(chunk >> 12 & 0x3F)]
                target[written + 2] = alphabet[Int(chunk >> 6 & 0x3F)]
            default:
                break
            }
        }
    }

    /// Decodes unpadded base64url; returns `nil` for any other character, padding, or an impossible length.
    public static func decode(_ text: some StringProtocol) -> Data? {
        var output = Data()
        output.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.utf8 {
            guard let value = decodeTable[Int(character)] else { return nil }
            buffer = (buffer << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        // A lone trailing character (6 bits) cannot encode a byte; leftover bits must be zero.
        guard bits < 6, buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return output
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let decodeTable: [UInt8?] = {
        var table = [UInt8?](repeating: nil, count: 256)
        for (index, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(index)
        }
        return table
    }()
}
