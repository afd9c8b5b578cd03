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
        let rows = [["kid", "state", "added", "usable at", "sessions"]] + keys.map(Self.row)
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let padded = row.enumerated().map { index, cell in
                index < widths.count ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0) : cell
            }
            Output.line(padded.joined(separator: "  "))
        }
    }

    private static func row(_ key: ClientKeyStatus) -> [String] {
        let timestamp = ISO8601DateFormatter()
        return [
            key.record.keyID, key.record.state.rawValue, timestamp.string(from: key.record.addedAt),
            timestamp.string(from: key.record.usableAt), String(key.sessions),
        ]
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
