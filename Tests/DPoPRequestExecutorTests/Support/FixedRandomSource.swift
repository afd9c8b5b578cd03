import Synchronization
import WireFormat

/// Returns scripted bytes first, then a counter pattern, so tests control `jti`, verifiers and `state`.
final class FixedRandomSource: RandomSource {
    private let script: Mutex<[[UInt8]]>
    private let counter = Mutex<UInt8>(0)

    init(_ script: [[UInt8]] = []) {
        self.script = Mutex(script)
    }

    func bytes(count: Int) -> [UInt8] {
        if let next = script.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            return Array(next.prefix(count))
        }
        let value = counter.withLock { value in
            value &+= 1
            return value
        }
        return [UInt8](repeating: value, count: count)
    }
}
