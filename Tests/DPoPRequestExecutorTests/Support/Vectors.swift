import Foundation

/// The known-answer vectors under `Tests/Vectors` (RFC 7636 appendix B, RFC 7638 §3.1, RFC 9449 §4.3).
enum Vectors {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Vectors")

    static func rfcKnownAnswers() throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent("rfc-known-answers.json"))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw VectorError.malformed
        }
        return object
    }

    static func section(_ name: String) throws -> [String: Any] {
        guard let section = try rfcKnownAnswers()[name] as? [String: Any] else { throw VectorError.malformed }
        return section
    }

    enum VectorError: Error {
        case malformed
    }
}
