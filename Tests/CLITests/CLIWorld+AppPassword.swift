import Foundation
import HTTPTransport
import Testing

extension CLIWorld {
    /// Signs `handle` in with its sandbox app password from `ATOAUTH_APP_PASSWORD`, expecting success.
    @discardableResult
    func signInWithAppPassword(_ handle: String) async throws -> CLIProcess.Result {
        let password = try #require(sandbox.appPasswords[handle], "the sandbox printed no app password for \(handle)")
        let result = try await atoauth(
            "accounts",
            "add",
            handle,
            "--app-password",
            extraEnvironment: ["ATOAUTH_APP_PASSWORD": password]
        )
        #expect(result.status == 0, "accounts add \(handle) --app-password failed: \(result.stderr)")
        return result
    }

    /// Ends an app-password session at the sandbox PDS with its refresh JWT, as another client of the account
    /// (or the account's owner revoking the app password) would.
    func deleteSessionAtServer(refreshJwt: String) async throws {
        let response = try await AsyncHTTPClientTransport.withTransport { transport in
            try await transport.send(
                HTTPRequest(
                    method: .post,
                    url: sandbox.pds.appendingPathComponent("xrpc/com.atproto.server.deleteSession"),
                    headers: ["Authorization": "Bearer \(refreshJwt)"]
                )
            )
        }
        #expect(response.status == 200)
    }

    /// Whether any output or any file under the home and key folder holds one of `secrets`, byte for byte.
    func leaks(_ secrets: [String], in results: [CLIProcess.Result]) throws -> [String] {
        let texts = results.flatMap { [Data($0.stdout.utf8), Data($0.stderr.utf8)] }
        let blobs = texts + (try files().map(\.bytes))
        return secrets.filter { secret in blobs.contains { $0.range(of: Data(secret.utf8)) != nil } }
    }
}
