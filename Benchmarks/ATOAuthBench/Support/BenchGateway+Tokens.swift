import ATProtoPermissions
import ATProtoSyntax
import AccountManager
import Foundation
import Gateway

extension BenchGateway {
    /// A named token in `accounts`' store, limited to the first account and to posting: every call with it is judged
    /// (its account and its permissions), as a least-privilege caller's are.
    static func scopedToken(_ accounts: AccountManager) async throws -> String {
        let token = GatewayToken.generate()
        _ = try await accounts.gatewayTokens().create(
            name: "bench",
            token: token,
            accounts: [try DID(validating: BenchAccounts.did(0))],
            scope: try ScopeSet(requested: "repo:app.bsky.feed.post?action=create"),
            lifetime: .seconds(86_400),
            now: Date()
        )
        return token
    }
}
