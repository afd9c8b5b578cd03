import Foundation
import WireFormat

/// The body of `POST /_sandbox/settings`, checked whole before anything is applied.
///
/// Each number must be finite and within its ``SandboxSettingRange``, each flag a JSON boolean (RFC 8259 §3), each
/// withheld permission and refused scope a scope token that parses; members it does not know are ignored.
struct SettingsChange: Decodable, Sendable {
    var accessTokenLifetime: Double?
    var nonceRotationPeriod: Double?
    var refreshServerErrors: Double?
    var newNonceOnEveryResponse: Bool?
    var slowResponses: Double?
    var autoApprove: Bool?
    var withheldPermissions: [String]?
    var issuerMismatch: Bool?
    var noIssParameter: Bool?
    var didDocumentNamesOtherHandle: Bool?
    var prmNamesOtherServer: Bool?
    var refusedScopes: [String]?
    var noDPoPNonces: Bool?
    var clockSkew: Double?
    var confidentialSessionLifetime: Double?
    var confidentialRefreshTokenLifetime: Double?

    /// Why a body was refused: the setting it concerns (`nil` when the body is not a JSON object) and why.
    struct Refusal: Error {
        var setting: String?
        var message: String
    }

    /// The numeric settings and their ranges.
    static let ranges: [SandboxSettingRange] = [
        .accessTokenLifetime, .nonceRotationPeriod, .refreshServerErrors, .slowResponses, .clockSkew,
        .confidentialSessionLifetime, .confidentialRefreshTokenLifetime,
    ]

    /// The settings that take `true` or `false`.
    static let flags = [
        "newNonceOnEveryResponse", "autoApprove", "issuerMismatch", "noIssParameter", "didDocumentNamesOtherHandle",
        "prmNamesOtherServer", "noDPoPNonces",
    ]

    /// The settings that take an array of permission scope tokens.
    static let tokenLists = ["withheldPermissions", "refusedScopes"]

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
        if let confidentialSessionLifetime {
            configuration.confidentialSessionLifetime = confidentialSessionLifetime
            applied.append("confidentialSessionLifetime")
        }
        if let confidentialRefreshTokenLifetime {
            configuration.confidentialRefreshTokenLifetime = confidentialRefreshTokenLifetime
            applied.append("confidentialRefreshTokenLifetime")
        }
        if let withheldPermissions {
            configuration.withheldPermissions = withheldPermissions
            applied.append("withheldPermissions")
        }
        applied += applyFaults(to: &configuration.faults)
        return applied.sorted()
    }

    /// Applies the fault flags, refused scopes and clock skew present and returns their names.
    private func applyFaults(to faults: inout SandboxFaults) -> [String] {
        var applied: [String] = []
        let flags: [(Bool?, WritableKeyPath<SandboxFaults, Bool>, String)] = [
            (issuerMismatch, \.issuerMismatch, "issuerMismatch"),
            (noIssParameter, \.noIssParameter, "noIssParameter"),
            (didDocumentNamesOtherHandle, \.didDocumentNamesOtherHandle, "didDocumentNamesOtherHandle"),
            (prmNamesOtherServer, \.prmNamesOtherServer, "prmNamesOtherServer"),
            (noDPoPNonces, \.noDPoPNonces, "noDPoPNonces"),
        ]
        for case (let value?, let keyPath, let name) in flags {
            faults[keyPath: keyPath] = value
            applied.append(name)
        }
        if let refusedScopes {
            faults.refusedScopes = refusedScopes
            applied.append("refusedScopes")
        }
        if let clockSkew {
            faults.clockSkew = clockSkew
            applied.append("clockSkew")
        }
        return applied
    }

    private func check() throws(Refusal) {
        let numbers = [
            accessTokenLifetime, nonceRotationPeriod, refreshServerErrors, slowResponses, clockSkew,
            confidentialSessionLifetime, confidentialRefreshTokenLifetime,
        ]
        for case (let range, let value?) in zip(Self.ranges, numbers) {
            if let problem = range.problem(value) { throw Refusal(setting: range.name, message: problem) }
        }
        for case (let name, let tokens?) in zip(Self.tokenLists, [withheldPermissions, refusedScopes]) {
            for token in tokens {
                if let problem = SandboxConfiguration.permissionProblem(token) {
                    throw Refusal(setting: name, message: "\(name): \(problem)")
                }
            }
        }
    }

    /// The refusal of a body that did not decode: the setting of the wrong type, when the error names one.
    private static func refusal(of error: any Error) -> Refusal {
        let setting = DecodingFailure.member(of: error)
        if let range = ranges.first(where: { $0.name == setting }) {
            return Refusal(setting: range.name, message: "\(range.name) must be \(range.expectation)")
        }
        if let setting, flags.contains(setting) {
            return Refusal(setting: setting, message: "\(setting) must be true or false")
        }
        if let setting, tokenLists.contains(setting) {
            return Refusal(setting: setting, message: "\(setting) must be an array of permission scope tokens")
        }
        return Refusal(setting: nil, message: "send a JSON object of settings")
    }
}
