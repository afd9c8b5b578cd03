import ATProtoPermissions
import ATProtoSyntax
import AccountManager
import Foundation
import Logging
import Synchronization

/// Who a request's `Authorization: Bearer <token>` is: the start-up token, or a named token from the account store,
/// each limited to the gateway's allowed accounts.
struct GatewayAuthenticator: Sendable {
    /// The start-up token.
    let startupToken: String
    /// The accounts every token of this gateway is limited to (`--allow-account`); `nil` for all.
    let allowedAccounts: Set<DID>?
    /// The named tokens, or `nil` when the gateway takes the start-up token only.
    let tokens: GatewayTokenStore?
    let now: @Sendable () -> Date
    let logger: Logger
    /// Each token's scope, parsed once.
    let scopes = ParsedScopes()

    /// The grant of the request's token, or the refusal: 401 `AuthRequired` for none or an unknown one,
    /// 401 `TokenExpired` for an expired one.
    func grant(_ authorization: [String]) async -> Result<TokenGrant, GatewayRefusal> {
        guard let presented = BearerToken.credential(authorization) else { return .failure(.authRequired) }
        if BearerToken.equalInConstantTime(Array(presented.utf8), Array(startupToken.utf8)) {
            return .success(TokenGrant(name: TokenGrant.startupName, accounts: allowedAccounts, scope: nil))
        }
        guard let tokens else { return .failure(.authRequired) }
        let record: GatewayTokenRecord?
        do {
            let digest = Array(GatewayTokenStore.digest(presented).utf8)
            // Every digest compared, each in full, in time that says nothing about where they differ.
            record = try await tokens.records().reduce(GatewayTokenRecord?.none) { found, candidate in
                BearerToken.equalInConstantTime(digest, Array(candidate.digest.utf8)) ? candidate : found
            }
        } catch {
            logger.error("the gateway tokens cannot be read", metadata: ["error": .string("\(error)")])
            return .failure(.internalError("The gateway's named tokens cannot be read from the account store."))
        }
        guard let record else { return .failure(.authRequired) }
        let time = now()
        guard !record.hasExpired(at: time) else { return .failure(.tokenExpired) }
        var accounts = record.accounts.isEmpty ? nil : Set(record.accounts)
        if let allowedAccounts { accounts = accounts.map { $0.intersection(allowedAccounts) } ?? allowedAccounts }
        let name = record.name
        let log = logger
        // The last use is written at most once a minute per token, after the answer, never on the request's path.
        if tokens.isUseDue(of: name, at: time) {
            Task {
                do {
                    try await tokens.noteUse(of: name, at: time)
                } catch {
                    log.warning("a token's last use cannot be written", metadata: ["token": .string(name)])
                }
            }
        }
        return .success(TokenGrant(name: name, accounts: accounts, scope: record.scope.map(scopes.parsed)))
    }
}

/// Scope strings parsed once: a token's scope is judged on each of its requests.
final class ParsedScopes: Sendable {
    private let parsed = Mutex<[String: ScopeSet]>([:])

    func parsed(_ scope: String) -> ScopeSet {
        if let known = parsed.withLock({ $0[scope] }) { return known }
        let set = ScopeSet(granted: scope)
        parsed.withLock { $0[scope] = set }
        return set
    }
}

extension GatewayAuthenticator {
    /// The judge of a gateway's requests: the start-up token, and the named tokens of `accounts`' store unless
    /// ``GatewayConfiguration/acceptsNamedTokens`` is off, each limited to ``GatewayConfiguration/allowedAccounts``.
    init(configuration: GatewayConfiguration, accounts: AccountManager, logger: Logger) {
        self.init(
            startupToken: configuration.token,
            allowedAccounts: configuration.allowedAccounts,
            tokens: configuration.acceptsNamedTokens ? accounts.gatewayTokens() : nil,
            now: { Date() },
            logger: logger
        )
    }
}
