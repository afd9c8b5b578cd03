import Foundation
import Testing

/// Finds every public error type in `Sources/` by reading the source, so that a new type that does not conform to
/// `CategorizedError` fails a test without anyone adding it to a list.
@Suite("Every public error type in Sources conforms to CategorizedError, found by reading the sources")
struct ConformanceScanTests {
    /// What the scan of `Sources/` found.
    struct Scan {
        /// The public types whose declaration or an extension says they are an `Error` (or a `CategorizedError`),
        /// by simple name, with the file that declares each.
        var errorTypes: [String: String] = [:]
        /// The types named in a `CategorizedError` conformance, by simple name.
        var conforming: Set<String> = []
        /// The errors' code enums (`NamedFailureCode`), as `File.swift: Name`, each with whether it is
        /// `@nonexhaustive`.
        var codeEnums: [(name: String, isOpen: Bool)] = []
    }

    /// The package's `Sources` directory, found from this file's place in `Tests/FailuresTests`.
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// `public struct X: A, B {`, `public final class X<T>: A {`, `public struct X {`: the name and the inheritance
    /// clause, if any.
    static var declaration: Regex<(Substring, Substring, Substring?)> {
        #/public\s+(?:final\s+)?(?:struct|enum|class|actor)\s+(\w+)(?:<[^>{]*>)?\s*(?::\s*([^{]*))?\{/#
    }
    /// `extension X.Y: A, B {` or `extension X: A where …{`: the name and the conformances.
    static var conformance: Regex<(Substring, Substring, Substring)> { #/extension\s+([\w.]+)\s*:\s*([^{]*)\{/# }

    /// Whether an inheritance clause names `Error` or `CategorizedError` (as a whole word, not `SyntaxError`).
    static func saysError(_ clause: Substring) -> Bool {
        clause.split(whereSeparator: { ",& \n\t".contains($0) }).contains { $0 == "Error" || $0 == "CategorizedError" }
    }

    static func saysCategorized(_ clause: Substring) -> Bool {
        clause.split(whereSeparator: { ",& \n\t".contains($0) }).contains("CategorizedError")
    }

    /// The matches of `regex` that begin with `word` in `text`.
    ///
    /// The regex is tried only where `word` stands: tried at every position of every file, as `matches(of:)` does,
    /// the scans took seconds of the threads all tests share.
    static func matches<Output>(of regex: Regex<Output>, at word: String, in text: String) -> [Regex<Output>.Match] {
        text.ranges(of: word).compactMap { try? regex.prefixMatch(in: text[$0.lowerBound...]) }
    }

    /// What ``read()`` found, read once for the four tests that look at it.
    static let scanned = Result { try read() }

    /// What the scan found, or the error that stopped it.
    static func scan() throws -> Scan { try scanned.get() }

    /// Reads every Swift file under `Sources/`.
    static func read() throws -> Scan {
        var scan = Scan()
        var publicTypes: [String: String] = [:]
        var extendedAsError: Set<String> = []
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            let path = file.path.replacingOccurrences(of: sources.path + "/", with: "")
            for match in matches(of: declaration, at: "public", in: text) {
                let name = String(match.1)
                publicTypes[name] = path
                let clause = match.2 ?? ""
                if saysError(clause) { scan.errorTypes[name] = path }
                if saysCategorized(clause) { scan.conforming.insert(name) }
            }
            scan.codeEnums += codeEnums(in: text).map { ("\(file.lastPathComponent): \($0.name)", $0.isOpen) }
            for match in matches(of: conformance, at: "extension", in: text) {
                let name = String(match.1.split(separator: ".").last ?? match.1)
                if saysError(match.2) { extendedAsError.insert(name) }
                if saysCategorized(match.2) { scan.conforming.insert(name) }
            }
        }
        for name in extendedAsError { if let path = publicTypes[name] { scan.errorTypes[name] = path } }
        return scan
    }

    @Test("each public error type found in Sources is named in a CategorizedError conformance")
    func everyPublicErrorConforms() throws {
        let scan = try Self.scan()
        let missing = scan.errorTypes.filter { !scan.conforming.contains($0.key) }
        #expect(missing.isEmpty, "public errors that do not conform to CategorizedError: \(missing)")
    }

    @Test("the scan finds the error types of every layer, nested ones and those made errors by an extension")
    func scanFindsThem() throws {
        let found = Set(try Self.scan().errorTypes.keys)
        let known: Set = [
            "SyntaxError", "PermissionError", "Failure", "TransportError", "FetchError", "ShortBody", "TooLarge",
            "KeystoreError", "PostgresStoreError", "DPoPError", "IdentityError", "SessionError",
            "LoopbackListenerError",
            "AccountError", "CallTimeoutError", "XRPCError", "XRPCRequestError", "MissingPermissionError",
            "DoctorInputError", "SandboxError", "SandboxWorldError", "GatewayError", "WaitTimedOut",
            "ThrowawayPostgresError", "UnreadablePrivateScalar", "MetadataError",
        ]
        #expect(known.subtracting(found).isEmpty, "not found: \(known.subtracting(found))")
    }

    /// `public enum Code: String, NamedFailureCode {`: the enum's name.
    static var codeEnum: Regex<(Substring, Substring)> { #/public\s+enum\s+(\w+)\s*:[^{]*\bNamedFailureCode\b/# }

    /// The code enums declared in `text`, each with whether the line before it says `@nonexhaustive`.
    static func codeEnums(in text: String) -> [(name: String, isOpen: Bool)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.indices.compactMap { index in
            guard lines[index].contains("NamedFailureCode"), let match = lines[index].firstMatch(of: codeEnum) else {
                return nil
            }
            let before = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
            return (String(match.1), before == "@nonexhaustive")
        }
    }

    @Test("every error's Code enum is @nonexhaustive, so a code added later never breaks an app's switch")
    func everyCodeEnumIsOpen() throws {
        let enums = try Self.scan().codeEnums
        #expect(enums.count >= 14, "the scan found only \(enums.count) code enums")
        let closed = enums.filter { !$0.isOpen }.map(\.name)
        #expect(closed.isEmpty, "code enums without @nonexhaustive: \(closed)")
        let declaration = "    public enum Code: String, NamedFailureCode {\n        case a\n    }"
        #expect(Self.codeEnums(in: "    /// Doc.\n" + declaration).map(\.isOpen) == [false])
        #expect(Self.codeEnums(in: "    /// Doc.\n    @nonexhaustive\n" + declaration).map(\.isOpen) == [true])
    }

    @Test("a type that says it is an Error and not a CategorizedError is caught")
    func scanCatchesANewType() {
        let clause: Substring = "Error, Sendable, Hashable "
        #expect(Self.saysError(clause))
        #expect(!Self.saysCategorized(clause))
        #expect(!Self.saysError("SyntaxError, Sendable"))
        let source = "public struct NewFailure: Error, Sendable {\n    let reason: String\n}"
        let match = source.firstMatch(of: Self.declaration)
        #expect(match.map { String($0.1) } == "NewFailure")
        // A type declared with no inheritance clause is still found, for an extension that makes it an Error.
        let plain = "public struct Plain {\n}\nextension Plain: Error {}".firstMatch(of: Self.declaration)
        #expect(plain.map { String($0.1) } == "Plain" && plain?.2 == nil)
    }
}
