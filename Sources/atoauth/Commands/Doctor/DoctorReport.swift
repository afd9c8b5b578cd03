import Foundation
import SignInDoctor

/// The text form of a diagnosis: one line per check, and for a warning or a failure what to do and who does it.
enum DoctorReport {
    static func text(_ diagnosis: Diagnosis) -> String {
        let width = diagnosis.checks.map(\.check.count).max() ?? 0
        var lines = ["Diagnosis of \(diagnosis.target)", ""]
        for finding in diagnosis.checks {
            let name = finding.check.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("\(finding.status.rawValue)  \(name)  \(finding.seen)  [\(finding.rule)]")
            if let fix = finding.fix {
                let indent = String(repeating: " ", count: width + 8)
                lines.append("\(indent)fix, for \(party(finding.who)): \(fix)")
            }
        }
        lines.append("")
        lines.append(summary(diagnosis))
        lines.append("This report holds no token, key or password: it is safe to paste into a public issue.")
        return lines.joined(separator: "\n")
    }

    private static func summary(_ diagnosis: Diagnosis) -> String {
        func count(_ status: Finding.Status) -> Int { diagnosis.checks.filter { $0.status == status }.count }
        let failed = count(.fail)
        let verdict =
            failed > 0
            ? "\(failed) failed: a sign-in fails, or would, until \(failed == 1 ? "it is" : "they are") fixed."
            : "Nothing failed."
        return "\(diagnosis.checks.count) checks: \(count(.pass)) passed, \(count(.warn)) warned, \(failed) failed, "
            + "\(count(.skip)) skipped. \(verdict)"
    }

    private static func party(_ who: Finding.Party?) -> String {
        switch who {
        case .user?: "you (the person signing in)"
        case .app?: "the app's developer"
        case .server?: "the server's operator"
        case nil: "anyone"
        }
    }
}
