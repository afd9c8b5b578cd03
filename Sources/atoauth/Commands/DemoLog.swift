import ATClient
import Foundation
import Synchronization

/// Where the demo's report goes: printed line by line as the steps run, or gathered and printed as one JSON object
/// at the end with `--json`: `{"ok": true, "sandbox": {…}, "steps": [{"step": 1, "title": …, "lines": […]}]}`.
final class DemoLog: Sendable {
    private struct Step {
        var number: Int
        var title: String
        var lines: [String] = []
    }

    private let json: Bool
    private let steps = Mutex<[Step]>([])

    init(json: Bool) {
        self.json = json
    }

    /// Starts step `number`.
    func step(_ number: Int, _ title: String) {
        guard json else { return Output.line("\(number). \(title)") }
        steps.withLock { $0.append(Step(number: number, title: title)) }
    }

    /// A line about the current step.
    func detail(_ text: String) {
        guard json else { return Output.line("      \(text)") }
        steps.withLock { steps in
            guard !steps.isEmpty else { return }
            steps[steps.count - 1].lines.append(text)
        }
    }

    /// A line of the text report only, such as the closing summary.
    func note(_ text: String) {
        if !json { Output.line(text) }
    }

    /// With `--json`, prints the report of a walk that succeeded.
    func finish(sandbox: [String: String]) {
        guard json else { return }
        let report: [String: Any] = [
            "ok": true,
            "sandbox": sandbox,
            "steps": steps.withLock { $0 }.map { ["step": $0.number, "title": $0.title, "lines": $0.lines] },
        ]
        Output.line(XRPCResponse.jsonText(of: report, pretty: false) ?? "{}")
    }
}
