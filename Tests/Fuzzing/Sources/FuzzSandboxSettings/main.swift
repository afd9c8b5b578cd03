// The body of the sandbox's `POST /_sandbox/settings`: every number is refused outside its range before it reaches a
// conversion to `Int` or `Duration`, and what is applied then converts without trapping, as the sandbox's handlers
// convert it.
//
// Input: the JSON body.

import Foundation
import FuzzSupport

@testable import Sandbox

Fuzzer.run { input in
    do throws(SandboxSettingsChange.Refusal) {
        let change = try SandboxSettingsChange(json: input.data)
        var configuration = SandboxConfiguration(accounts: [])
        _ = change.apply(to: &configuration)
        for setting in SandboxSetting.all {
            guard let range = setting.range, case .number(let value) = setting.value(in: configuration) else {
                continue
            }
            invariant(range.problem(value) == nil, "\(setting.key) \(value) is in range")
            _ = Duration.milliseconds(Int(value * 1000))
            _ = WholeSeconds.of(value)
        }
    } catch {
        invariant(!error.message.isEmpty, "a refusal says why")
        if let setting = error.setting {
            invariant(error.message.hasPrefix(setting), "a refusal names its setting first")
        }
    }
}
