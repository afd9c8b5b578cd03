import ATProtoSyntax
import AccountManager
import Foundation
import Gateway

extension GatewayCommand {
    /// Sets what the gateway lends: `--allow-account` (by DID; each must be signed in), `--audit-log` and
    /// `--metrics-per-token`.
    func lending(into configuration: inout GatewayConfiguration, _ context: CLIContext) async throws {
        if !allowAccount.isEmpty {
            var allowed: Set<DID> = []
            for name in allowAccount {
                let identifier: ATIdentifier = try AccountName.identifier(name)
                allowed.insert(try await context.accounts.account(identifier).did)
            }
            configuration.allowedAccounts = allowed
        }
        configuration.auditLog = auditLog.map { URL(fileURLWithPath: $0) }
        configuration.metricsPerToken = metricsPerToken
    }
}
