import Foundation
import SignInDoctor

/// How the doctor's report shows this machine's paths, so that it is safe to paste into a public issue: a path
/// under `$HOME` as `~/…`, the store's directory and the key file elsewhere as `<store>` and `<key file>`.
struct DoctorPaths {
    /// Each local path and what stands for it, the longest path first.
    private let replacements: [(path: String, shown: String)]

    /// The paths of one command: the user's home (`$HOME`), the store's directory and the key file, if any.
    init(userHome: String?, storeHome: URL, keyFile: URL?) {
        func trimmed(_ path: String) -> String? {
            var path = path
            while path.count > 1, path.hasSuffix("/") { path.removeLast() }
            return path.hasPrefix("/") && path != "/" ? path : nil
        }
        let user = userHome.flatMap(trimmed)
        var replacements: [(path: String, shown: String)] = []
        for (path, label) in [(storeHome.path, "<store>"), (keyFile?.path, "<key file>")] {
            guard let path = path.flatMap(trimmed) else { continue }
            if let user, path == user || path.hasPrefix(user + "/") { continue }  // shown under ~ below
            replacements.append((path: path, shown: label))
        }
        if let user { replacements.append((path: user, shown: "~")) }
        self.replacements = replacements.sorted { $0.path.count > $1.path.count }
    }

    /// `text` with each local path replaced where it is a whole path or a path's leading part.
    func shown(_ text: String) -> String {
        replacements.reduce(text) { text, replacement in
            Self.replacing(replacement.path, with: replacement.shown, in: text)
        }
    }

    /// The diagnosis with every path in what was seen and what to do shown this way.
    func shown(_ diagnosis: Diagnosis) -> Diagnosis {
        var shown = diagnosis
        shown.target = self.shown(diagnosis.target)
        shown.checks = diagnosis.checks.map { finding in
            var finding = finding
            finding.seen = self.shown(finding.seen)
            finding.fix = finding.fix.map { self.shown($0) }
            return finding
        }
        return shown
    }

    /// Replaces `path` where the next character ends it (`/`, a space, punctuation, a final period, the end), so
    /// `/home/bo` is not replaced inside `/home/bob`.
    private static func replacing(_ path: String, with shown: String, in text: String) -> String {
        var result = ""
        var rest = text[...]
        while let range = rest.range(of: path) {
            let after = rest[range.upperBound...]
            let ends = Self.endsPath(after.first) || (after.first == "." && Self.endsPath(after.dropFirst().first))
            result += rest[..<range.lowerBound]
            result += ends ? shown : String(rest[range])
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// Whether a path stops before `character`: the end of the text, or anything but a letter, a digit, `-`, `_`
    /// and `.` (a sentence's final period is checked by the caller).
    private static func endsPath(_ character: Character?) -> Bool {
        guard let character else { return true }
        return !(character.isLetter || character.isNumber || "-_.".contains(character))
    }
}
