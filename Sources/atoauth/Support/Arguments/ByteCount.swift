import ArgumentParser

/// A size in bytes as `gateway --max-body` takes it, from 1 byte to ``maximum``.
///
/// A number, then optionally `K`, `M` or `G` (any case) for KiB, MiB or GiB: `20M` is 20 × 1024² bytes.
struct ByteCount: ArgumentValue, Hashable {
    var bytes: Int

    /// The largest size: 64 GiB.
    static let maximum = 64 << 30

    init(parsing text: String) throws(InvalidArgument) {
        let units: [String: Int] = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30]
        var digits = Substring(text)
        var unit = 1
        if let last = text.last, let multiplier = units[String(last).lowercased()] {
            unit = multiplier
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(digits) else {
            throw Self.refusal(text)
        }
        let (total, overflow) = number.multipliedReportingOverflow(by: unit)
        guard !overflow, (1...Self.maximum).contains(total) else { throw Self.refusal(text) }
        bytes = total
    }

    private static func refusal(_ text: String) -> InvalidArgument {
        InvalidArgument(
            value: text,
            requirement: "takes a number of bytes from 1 to 64G, with K, M or G for KiB, MiB or GiB, such as 20M"
        )
    }
}
