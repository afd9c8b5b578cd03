import Logging
import Synchronization

/// Keeps every line logged through its ``logger``, message and metadata, for a test that reads what a call logged.
final class LogRecording: Sendable {
    private let kept = Mutex<[String]>([])

    /// Every line so far, in order.
    var lines: [String] { kept.withLock { $0 } }

    /// A logger at debug level whose lines are kept here.
    var logger: Logger {
        var logger = Logger(label: "test.recording") { _ in RecordingLogHandler(recording: self) }
        logger.logLevel = .debug
        return logger
    }

    fileprivate func keep(_ line: String) {
        kept.withLock { $0.append(line) }
    }
}

/// Hands each record to a ``LogRecording`` as one line: level, message, metadata.
private struct RecordingLogHandler: LogHandler {
    let recording: LogRecording
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }.map { "\($0.key)=\($0.value)" }.sorted()
        recording.keep(([event.level.rawValue, "\(event.message)"] + fields).joined(separator: " "))
    }
}
