import Foundation

/// The AT Protocol interop syntax vectors under `Tests/Vectors/atproto-interop`.
///
/// One value a line; `#` starts a comment and blank lines are skipped. Lines are never trimmed: leading and
/// trailing spaces are deliberate negatives.
enum InteropVectors {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Vectors").appendingPathComponent("atproto-interop")

    static func values(_ file: String) throws -> [String] {
        let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
