import ATOAuthTesting
import Foundation
import Testing

/// scripts/check-readme-example builds the README's library example in a package that names only the `ATOAuth`
/// product; these tests keep the example on that one import and on that check, so that a README edit cannot take it
/// off either without a failing test.
@Suite("The README's library example")
struct ReadmeLibraryExampleTests {
    /// The repository's root: three levels above this file (Tests/ATOAuthTests/<file>).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Whether `line` is an import declaration in any of its forms: `import M`, `public import M`,
    /// `@testable import M`, `import struct M.T`.
    static func isImport(_ line: Substring) -> Bool {
        line.contains(#/^\s*(@\w+\s+)*((public|package|internal|fileprivate|private)\s+)?import\s/#)
    }

    /// The lines of the first Swift block under the README's "## The library" heading, as the script finds it.
    static func libraryBlock() throws -> [Substring] {
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(
            lines.firstIndex { $0.hasPrefix("## The library") },
            "README.md has no \"## The library\" heading"
        )
        let section = lines[(heading + 1)...].prefix { !$0.hasPrefix("## ") }
        let opening = try #require(
            section.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "```swift" },
            "the README's library section has no Swift block"
        )
        let body = section[(opening + 1)...]
        let closing = try #require(
            body.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "```" },
            "the README's library block is not closed"
        )
        return Array(body[..<closing])
    }

    @Test("its first Swift block under “## The library” imports ATOAuth and nothing else")
    func importsOnlyATOAuth() throws {
        let imports = try Self.libraryBlock().filter(Self.isImport)
        #expect(imports == ["import ATOAuth"])
    }

    @Test("the check builds that block: the script's generated source holds it, under the block's one import")
    func checkScriptWrapsTheBlock() async throws {
        let block = try Self.libraryBlock()
        let script = try await ChildProcess.run(Self.root.appending(path: "scripts/check-readme-example"), ["--print"])
        let generated = script.standardOutput
        #expect(script.status == 0, "\(script.standardError)")

        let lines = generated.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter(Self.isImport) == ["import ATOAuth"])
        #expect(generated.contains("func readmeLibraryExample(home: URL, keyFile: URL, openInBrowser: (URL) -> Void)"))
        for line in block where !Self.isImport(line) && !line.isEmpty {
            #expect(lines.contains("    " + line), "the generated source lacks the README's line \(line)")
        }
    }
}
