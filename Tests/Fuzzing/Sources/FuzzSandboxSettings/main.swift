// The body of the sandbox's `POST /_sandbox/settings`: every number is refused outside its range before it reaches a
// conversion to `Int` or `Duration`, and what is applied then converts without trapping, as the sandbox's handlers
// convert it.
//
// Input: the JSON body.

import Foundation
import FuzzSupport

@testable import Sandbox

Fuzzer.run { input in
    do throws(SettingsChange.Refusal) {
        let change = try SettingsChange.read(input.data)
        var configuration = SandboxConfiguration(accounts: [])
        _ = change.apply(to: &configuration)
        for (range, value) in zip(
            SettingsChange.ranges,
            [
                configuration.accessTokenLifetime, configuration.nonceRotationPeriod,
            ]
        ) {
            invariant(range.problem(value) == nil, "\(range.name) \(value) is in range")
            _ = Duration.milliseconds(Int(value * 1000))
            _ = WholeSeconds.of(value)
        }
        if let slow = configuration.faults.slowResponses {
            invariant(slow.isFinite && slow >= 0 && slow <= 60, "slowResponses \(slow) is in range")
            _ = Duration.milliseconds(Int(slow * 1000))
        }
    } catch {
        invariant(!error.message.isEmpty, "a refusal says why")
        if let setting = error.setting {
            invariant(error.message.hasPrefix(setting), "a refusal names its setting first")
        }
    }
}
