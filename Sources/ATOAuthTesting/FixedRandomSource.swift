import Synchronization
import WireFormat

/// Random bytes a test chooses: scripted byte strings first, then a counter pattern (each call's bytes all `1`, then
/// all `2`, …) or always the same byte, so tests control `jti`, PKCE verifiers and `state`.
package final class FixedRandomSource: RandomSource {
    private let script: Mutex<[[UInt8]]>
    private let counter = Mutex<UInt8>(0)
    private let repeated: UInt8?

    /// Gives the byte strings of `script` in order (each cut to the length asked), then the counter pattern.
    package init(_ script: [[UInt8]] = []) {
        self.script = Mutex(script)
        self.repeated = nil
    }

    /// Always gives `byte`: a broken source whose proofs all share one `jti`.
    package init(repeating byte: UInt8) {
        self.script = Mutex([])
        self.repeated = byte
    }

    package func bytes(count: Int) -> [UInt8] {
        if let next = script.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            return Array(next.prefix(count))
        }
        if let repeated { return [UInt8](repeating: repeated, count: count) }
        let value = counter.withLock { value in
            value &+= 1
            return value
        }
        return [UInt8](repeating: value, count: count)
    }
}
