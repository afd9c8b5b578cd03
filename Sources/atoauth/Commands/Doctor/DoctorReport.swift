import Foundation
import SignInDoctor

/// The text form of a diagnosis: one line per check, and for a warning or a failure what to do and who does it;
/// under the summary, the failed checks again with their fixes, so they do not scroll away.
enum DoctorReport {
    /// The whole report, or with `problemsOnly` (`--problems`) the summary and the failed checks alone.
    static func text(_ diagnosis: Diagnosis, deadline: Int, problemsOnly: Bool = false) -> String {
        var lines = ["Diagnosis of \(diagnosis.target)" + (problemsOnly ? ": the failed checks only" : ""), ""]
        if !problemsOnly {
            lines += findings(diagnosis.checks)
            lines.append("")
        }
        lines.append(summary(diagnosis))
        if !diagnosis.isComplete {
            lines.append(
                "Not done: the deadline (--deadline \(deadline) s) passed before \(diagnosis.notDone.count) "
                    + "\(diagnosis.notDone.count == 1 ? "check was" : "checks were") done: "
                    + "\(diagnosis.notDone.joined(separator: ", ")). Run the doctor again with a longer --deadline; "
                    + "-v shows which request is slow."
            )
        }
        let failures = diagnosis.failures
        if !failures.isEmpty {
            lines.append("")
            lines.append("Failed:")
            lines += findings(failures)
        }
        lines.append("")
        lines.append(
            "This report holds no token, key or password, and shows this machine's paths under ~ (or as <store>): "
                + "it is safe to paste into a public issue."
        )
        return lines.joined(separator: "\n")
    }

    /// One line per finding, and a line with what to do for a warning or a failure.
    private static func findings(_ findings: [Finding]) -> [String] {
        let width = findings.map(\.check.count).max() ?? 0
        var lines: [String] = []
        for finding in findings {
            let name = finding.check.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("\(finding.status.rawValue)  \(name)  \(finding.seen)  [\(finding.rule)]")
            if let fix = finding.fix {
                let indent = String(repeating: " ", count: width + 8)
                lines.append("\(indent)fix, for \(party(finding.who)): \(fix)")
            }
        }
        return lines
    }

    private static func summary(_ diagnosis: Diagnosis) -> String {
        func count(_ status: Finding.Status) -> Int { diagnosis.checks.filter { $0.status == status }.count }
        let failed = count(.fail)
        let verdict =
            failed > 0
            ? "\(failed) failed: a sign-in fails, or would, until \(failed == 1 ? "it is" : "they are") fixed."
            : diagnosis.isComplete ? "Nothing failed." : "Nothing failed of the checks done."
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
