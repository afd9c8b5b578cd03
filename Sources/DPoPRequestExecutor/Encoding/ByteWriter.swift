import WireFormat

/// Writes bytes into a buffer whose capacity the caller computed beforehand: the proof's JSON and its compact JWS
/// are written this way, without growing arrays or copying strings.
///
/// Every write checks the capacity with a precondition, so a wrong estimate traps instead of writing out of bounds.
struct ByteWriter: ~Copyable {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// How many bytes have been written, from the start of the buffer.
    private(set) var count = 0

    /// Writes into `buffer`, from its start.
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// The bytes written so far.
    var written: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[..<count]))
    }

    /// Appends one byte.
    mutating func append(_ byte: UInt8) {
        precondition(count < buffer.count, "ByteWriter capacity exceeded")
        buffer[count] = byte
        count += 1
    }

    /// Appends bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        precondition(bytes.count <= buffer.count - count, "ByteWriter capacity exceeded")
        UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...])).copyMemory(from: bytes)
        count += bytes.count
    }

    /// Appends the UTF-8 bytes of a literal such as `,"htm":`.
    mutating func append(_ literal: StaticString) {
        append(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends an integer in decimal, as JSON writes numbers.
    mutating func append(decimal value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in  // UInt64.max has 20 digits.
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            append(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: digits[start...])))
        }
    }

    /// Appends `bytes` as unpadded base64url (RFC 4648 §5).
    mutating func append(base64URL bytes: UnsafeRawBufferPointer) {
        let length = Base64URL.encodedCount(bytes.count)
        precondition(length <= buffer.count - count, "ByteWriter capacity exceeded")
        Base64URL.encode(bytes, into: UnsafeMutableBufferPointer(rebasing: buffer[count..<(count + length)]))
        count += length
    }
}
