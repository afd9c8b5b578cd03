import ATOAuthTesting
import Foundation
import Synchronization

extension OutputBuffer {
    /// What has been read so far, as text.
    var text: String { String(decoding: data.withLock { $0 }, as: UTF8.self) }

    /// The rest of the first line read so far that starts with `prefix`, trimmed, or `nil`.
    func line(after prefix: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix) }
            .map { $0.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces) }
    }
}

extension ChildProcess {
    /// Waits until `produce` finds what a starting child prints (its address, its settings), and returns it; the
    /// child is killed when it exits first (`failure` says why) or the wait times out, so a failed start never leaves
    /// it running.
    func awaitStart<Value>(
        _ event: String,
        timeout: Duration = .seconds(60),
        failure: @autoclosure @escaping () -> any Error,
        _ produce: () throws -> Value?
    ) async throws -> Value {
        do {
            return try await Waiting.value(event, timeout: timeout) {
                if let value = try produce() { return value }
                guard isRunning else { throw failure() }
                return nil
            }
        } catch {
            signal(SIGKILL)
            throw error
        }
    }
}
