import AccountManager
import ArgumentParser
import Foundation
import OAuthMetadata
import OAuthSessionManager

/// `atoauth client keys`.
struct ClientKeysCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List the confidential client's keys in the store: kid, state, dates and the sessions bound to each.",
        discussion: """
            One line per key, oldest first: its kid; its state, next (published, not signing yet), current (signs \
            new sign-ins) or retiring (signs only for the sessions bound to it); when it was added; when it may \
            sign (a next key's wait); and how many sessions signed in here are bound to it. Every key listed must \
            stay published in the client metadata document. With --json, an array of objects with kid, state, \
            addedAt, usableAt, sessions and jwk (the public key).

            Examples:
              atoauth client keys
              atoauth client keys --json |
                jq -r '.[] | select(.state == "current") | .kid'
            """
    )

    /// Listing reads the store only.
    static let globalOptions = GlobalOption.store

    @OptionGroup var global: GlobalOptions<Self>

    func run() async throws {
        let keys = try await CLIContext.run(global) { try await $0.accounts.clientKeys() }
        if global.json {
            try Output.json(keys.map(ClientKeyJSON.init))
            return
        }
        guard !keys.isEmpty else {
            Output.message("No client keys. Make one with: atoauth client keygen")
            return
        }
        let rows = keys.map(ClientKeyJSON.init).map {
            [$0.kid, $0.state, $0.addedAt, $0.usableAt, String($0.sessions)]
        }
        Output.line(
            TextTable(rows: [["kid", "state", "added", "usable at", "sessions"]] + rows).lines.joined(separator: "\n")
        )
    }
}

/// A key of `client keys --json`.
struct ClientKeyJSON: Encodable {
    var kid: String
    /// `next`, `current` or `retiring`.
    var state: String
    var addedAt: String
    var usableAt: String
    /// How many sessions signed in here are bound to the key.
    var sessions: Int
    /// The public JWK, as the client metadata document publishes it.
    var jwk: [String: String]

    init(_ status: ClientKeyStatus) {
        let timestamp = ISO8601DateFormatter()
        kid = status.record.keyID
        state = status.record.state.rawValue
        addedAt = timestamp.string(from: status.record.addedAt)
        usableAt = timestamp.string(from: status.record.usableAt)
        sessions = status.sessions
        jwk = status.publicJWK
    }
}
