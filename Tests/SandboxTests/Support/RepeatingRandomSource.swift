import WireFormat

/// Always the same bytes: a broken client whose proofs all share one `jti`.
struct RepeatingRandomSource: RandomSource {
    let byte: UInt8

    func bytes(count: Int) -> [UInt8] {
        [UInt8](repeating: byte, count: count)
    }
}
