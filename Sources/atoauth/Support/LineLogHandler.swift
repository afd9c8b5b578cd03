import Foundation
import Logging

/// Writes each log record as one line on stderr through ``Output``: `time level message key=value …` (keys sorted),
/// or with `json` one JSON object with `time`, `level`, `message` and the metadata (keys sorted).
///
/// The long-running commands' log: `gateway`, and with `--json` also `sandbox`. With `--json`, every line such a
/// command writes on stderr, notes and warnings included, is a record of this shape (the last line of a failure is
/// the error object, as for every command).
struct LineLogHandler: LogHandler {
    var json: Bool
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// A logger labelled `label` whose records are lines of this kind, from `level` up.
    static func logger(label: String, json: Bool, level: Logger.Level) -> Logger {
        var logger = Logger(label: label) { _ in LineLogHandler(json: json) }
        logger.logLevel = level
        return logger
    }

    func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }
        Output.message(Self.line(level: event.level, message: "\(event.message)", fields: fields, json: json))
    }

    /// One record as a line, stamped with the current time.
    ///
    /// In JSON, a whole or fractional number (such as `status`) stays a number, so `jq 'select(.status >= 500)'`
    /// compares numbers; every other value is its text.
    static func line(
        level: Logger.Level,
        message: String,
        fields: Logger.Metadata = [:],
        json: Bool
    ) -> String {
        let time = Date().formatted(.iso8601)
        guard json else {
            let pairs = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\(quoted("\($0.value)"))" }
            return ([time, level.rawValue, message] + pairs).joined(separator: " ")
        }
        var object: [String: Any] = fields.mapValues(Self.jsonValue)
        object["time"] = time
        object["level"] = level.rawValue
        object["message"] = message
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: options) else {
            return #"{"level":"error","message":"a log record could not be encoded"}"#
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A metadata value in a JSON line: an integer or a finite floating-point number as a number, else its text.
    private static func jsonValue(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .stringConvertible(let number as Int): number
        case .stringConvertible(let number as Double) where number.isFinite: number
        default: "\(value)"
        }
    }

    /// A value as it reads in a `key=value` line: in double quotes (inner ones escaped) when it has a space.
    private static func quoted(_ value: String) -> String {
        guard value.contains(" ") || value.contains("\"") || value.isEmpty else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
