import Foundation
import WireFormat

/// The body of `POST /_sandbox/settings`, checked whole before anything is applied.
///
/// Each number must be finite and within its ``SandboxSettingRange``, each flag a JSON boolean (RFC 8259 §3), each
/// withheld permission a scope token that parses; members it does not know are ignored.
struct SettingsChange: Decodable, Sendable {
    var accessTokenLifetime: Double?
    var nonceRotationPeriod: Double?
    var refreshServerErrors: Double?
    var newNonceOnEveryResponse: Bool?
    var slowResponses: Double?
    var autoApprove: Bool?
    var withheldPermissions: [String]?

    /// Why a body was refused: the setting it concerns (`nil` when the body is not a JSON object) and why.
    struct Refusal: Error {
        var setting: String?
        var message: String
    }

    /// The numeric settings and their ranges.
    static let ranges: [SandboxSettingRange] = [
        .accessTokenLifetime, .nonceRotationPeriod, .refreshServerErrors, .slowResponses,
    ]

    /// Reads and checks a body.
    ///
    /// - Throws: a ``Refusal`` naming the first setting that is refused, or none when the body is not a JSON object.
    static func read(_ body: Data) throws(Refusal) -> SettingsChange {
        let change: SettingsChange
        do {
            change = try JSONDecoder().decode(SettingsChange.self, from: body)
        } catch {
            throw refusal(of: error)
        }
        try change.check()
        return change
    }

    /// Applies the settings present and returns their names, sorted.
    func apply(to configuration: inout SandboxConfiguration) -> [String] {
        var applied: [String] = []
        if let accessTokenLifetime {
            configuration.accessTokenLifetime = accessTokenLifetime
            applied.append("accessTokenLifetime")
        }
        if let nonceRotationPeriod {
            configuration.nonceRotationPeriod = nonceRotationPeriod
            applied.append("nonceRotationPeriod")
        }
        if let refreshServerErrors {
            let count = Int(exactly: refreshServerErrors) ?? 0
            configuration.faults.refreshServerError = count > 0 ? .times(count) : .off
            applied.append("refreshServerErrors")
        }
        if let newNonceOnEveryResponse {
            configuration.faults.newNonceOnEveryResponse = newNonceOnEveryResponse
            applied.append("newNonceOnEveryResponse")
        }
        if let slowResponses {
            configuration.faults.slowResponses = slowResponses > 0 ? slowResponses : nil
            applied.append("slowResponses")
        }
        if let autoApprove {
            configuration.autoApprove = autoApprove
            applied.append("autoApprove")
        }
        if let withheldPermissions {
            configuration.withheldPermissions = withheldPermissions
            applied.append("withheldPermissions")
        }
        return applied.sorted()
    }

    private func check() throws(Refusal) {
        let numbers = [accessTokenLifetime, nonceRotationPeriod, refreshServerErrors, slowResponses]
        for case (let range, let value?) in zip(Self.ranges, numbers) {
            if let problem = range.problem(value) { throw Refusal(setting: range.name, message: problem) }
        }
        for token in withheldPermissions ?? [] {
            if let problem = SandboxConfiguration.permissionProblem(token) {
                throw Refusal(setting: "withheldPermissions", message: "withheldPermissions: \(problem)")
            }
        }
    }

    /// The refusal of a body that did not decode: the setting of the wrong type, when the error names one.
    private static func refusal(of error: any Error) -> Refusal {
        let setting = DecodingFailure.member(of: error)
        if let range = ranges.first(where: { $0.name == setting }) {
            return Refusal(setting: range.name, message: "\(range.name) must be \(range.expectation)")
        }
        switch setting {
        case "newNonceOnEveryResponse"?, "autoApprove"?:
            return Refusal(setting: setting, message: "\(setting ?? "") must be true or false")
        case "withheldPermissions"?:
            return Refusal(setting: setting, message: "withheldPermissions must be an array of permission scope tokens")
        default:
            return Refusal(setting: nil, message: "send a JSON object of settings")
        }
    }
}
