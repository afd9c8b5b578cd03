import Foundation

/// The permission scope vectors under `Tests/Vectors/atproto-permissions`.
///
/// One scope token a line; `#` at the start of a line makes it a comment and blank lines are skipped. Lines are
/// never trimmed.
enum PermissionVectors {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Vectors").appendingPathComponent("atproto-permissions")

    static func values(_ file: String) throws -> [String] {
        let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
