package import Foundation

extension Data {
    /// `count` bytes where byte `i` is `i × step + start`, modulo 256: a body whose every byte is checked, unlike one
    /// of zeros.
    ///
    /// The bytes repeat every 256, so one period is computed and then copied, doubling each time. A multi-megabyte
    /// body costs a few copies instead of a second of a debug build's loop, which would hold one of the few threads
    /// every test in the run shares and stall the others.
    package static func patterned(_ count: Int, step: Int, start: Int = 0) -> Data {
        let period = Data((0..<Swift.min(count, 256)).map { UInt8(truncatingIfNeeded: $0 &* step &+ start) })
        var bytes = period
        bytes.reserveCapacity(count)
        while bytes.count < count { bytes.append(bytes.prefix(count - bytes.count)) }
        return bytes
    }
}
