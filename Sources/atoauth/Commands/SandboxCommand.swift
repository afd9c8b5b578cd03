import ArgumentParser
import Foundation
import Logging
import Sandbox

/// `atoauth sandbox`: a local, strict AT Protocol authorization server, PDS and PLC directory on loopback.
///
/// Its settings' options come from ``SandboxSetting``'s table: names, help and ranges; they are checked and applied
/// by the table too.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run a local, strict AT Protocol authorization server, PDS and PLC directory for development.",
        discussion: SandboxHelp.discussion
    )

    @Option(
        name: .customLong("test-account"),
        help: "A test account's handle (repeat; default alice.test and bob.test)."
    )
    var accounts: [String] = []

    @Option(
        name: .customLong("two-factor"),
        help: ArgumentHelp(
            "A test account whose app-password sign-in asks for a sign-in code (repeat); the code is printed.",
            valueName: "handle"
        )
    )
    var twoFactorAccounts: [String] = []

    @Option(help: .port("the PLC directory"), transform: WholeNumber.anyPort("--plc-port")) var plcPort = 0
    @Option(help: .port("the PDS"), transform: WholeNumber.anyPort("--pds-port")) var pdsPort = 0
    @Option(help: .port("the authorization server"), transform: WholeNumber.anyPort("--auth-port")) var authPort = 0

    @Flag(name: .setting(.autoApprove), help: .setting(.autoApprove)) var autoApprove = false
    @Option(name: .setting(.accessTokenLifetime), parsing: .unconditional, help: .setting(.accessTokenLifetime))
    var accessTokenLifetime: Double?
    @Option(name: .setting(.nonceRotationPeriod), parsing: .unconditional, help: .setting(.nonceRotationPeriod))
    var nonceRotationPeriod: Double?
    @Option(
        name: .setting(.confidentialSessionLifetime),
        parsing: .unconditional,
        help: .setting(.confidentialSessionLifetime)
    )
    var confidentialSessionLifetime: Double?
    @Option(
        name: .setting(.confidentialRefreshTokenLifetime),
        parsing: .unconditional,
        help: .setting(.confidentialRefreshTokenLifetime)
    )
    var confidentialRefreshTokenLifetime: Double?
    @Option(name: .setting(.withheldPermissions), help: .setting(.withheldPermissions)) var withheld: [String] = []
    @Option(name: .setting(.refreshServerErrors), parsing: .unconditional, help: .setting(.refreshServerErrors))
    var refreshServerErrors: Double?
    @Option(name: .setting(.slowResponses), parsing: .unconditional, help: .setting(.slowResponses)) var slowResponses:
        Double?
    @Option(name: .scaled(.slowResponses), parsing: .unconditional, help: .scaled(.slowResponses)) var slowMilliseconds:
        Double?
    @Flag(name: .setting(.newNonceOnEveryResponse), help: .setting(.newNonceOnEveryResponse)) var newNonce = false
    @Flag(name: .setting(.issuerMismatch), help: .setting(.issuerMismatch)) var issuerMismatch = false
    @Flag(name: .setting(.noIssParameter), help: .setting(.noIssParameter)) var noIssParameter = false
    @Flag(name: .setting(.didDocumentNamesOtherHandle), help: .setting(.didDocumentNamesOtherHandle))
    var didDocumentNamesOtherHandle = false
    @Flag(name: .setting(.prmNamesOtherServer), help: .setting(.prmNamesOtherServer)) var prmNamesOtherServer = false
    @Option(name: .setting(.refusedScopes), help: .setting(.refusedScopes)) var refusedScopes: [String] = []
    @Flag(name: .setting(.noDPoPNonces), help: .setting(.noDPoPNonces)) var noDPoPNonces = false
    @Option(name: .setting(.clockSkew), parsing: .unconditional, help: .setting(.clockSkew)) var clockSkew: Double?

    @Flag(name: [.short, .long], help: "Log every request, not only rejections.")
    var verbose = false

    @Flag(
        name: .long,
        help: "Print the settings as one line of JSON instead of the banner, and log JSON lines on stderr."
    )
    var json = false

    /// Every setting given on the command line, named by its options, as ``SandboxSettingsChange`` checks it.
    private var settings: [SandboxSettingsChange.Named] {
        let choices: [SandboxSettingsChange.Named?] = [
            given(.autoApprove, autoApprove), given(.accessTokenLifetime, accessTokenLifetime),
            given(.nonceRotationPeriod, nonceRotationPeriod),
            given(.confidentialSessionLifetime, confidentialSessionLifetime),
            given(.confidentialRefreshTokenLifetime, confidentialRefreshTokenLifetime),
            given(.withheldPermissions, withheld), given(.refreshServerErrors, refreshServerErrors),
            given(.slowResponses, slowResponses), given(.slowResponses, inOtherUnit: slowMilliseconds),
            given(.newNonceOnEveryResponse, newNonce), given(.issuerMismatch, issuerMismatch),
            given(.noIssParameter, noIssParameter), given(.didDocumentNamesOtherHandle, didDocumentNamesOtherHandle),
            given(.prmNamesOtherServer, prmNamesOtherServer), given(.refusedScopes, refusedScopes),
            given(.noDPoPNonces, noDPoPNonces), given(.clockSkew, clockSkew),
        ]
        return choices.compactMap { $0 }
    }

    /// The configuration the options ask for.
    private func sandboxConfiguration() throws -> SandboxConfiguration {
        do throws(SandboxSettingsChange.Refusal) {
            let ports = SandboxConfiguration.Ports(
                plcDirectory: plcPort,
                pds: pdsPort,
                authorizationServer: authPort
            )
            let change = try SandboxSettingsChange(settings)
            return try SandboxConfiguration(
                testAccounts: accounts,
                twoFactor: twoFactorAccounts,
                ports: ports,
                settings: change
            )
        } catch {
            throw ValidationError(error.setting == nil ? "--two-factor: \(error.message)." : "\(error.message).")
        }
    }

    func validate() throws {
        _ = try sandboxConfiguration()
    }

    func run() async throws {
        let configuration = try sandboxConfiguration()
        let level: Logger.Level = verbose ? .debug : .info
        // With --json, stderr is JSON lines too: each rejection a record, as the gateway's log.
        let server = SandboxServer(
            configuration: configuration,
            logger: json
                ? LineLogHandler.logger(label: "atoauth.sandbox", json: true, level: level)
                : SandboxServer.standardErrorLogger(level: level)
        )
        try await server.run { endpoints in
            Output.line(json ? configuration.summaryJSON(endpoints) : configuration.banner(endpoints))
        }
    }
}

extension ArgumentHelp {
    /// The help of a sandbox port option, which names the origin.
    fileprivate static func port(_ origin: String) -> ArgumentHelp { "Port of \(origin) (default: a free port)." }
}
