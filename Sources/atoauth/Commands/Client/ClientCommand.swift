import ArgumentParser

/// `atoauth client …`: a confidential client's signing keys and its client metadata document.
struct ClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Make and list a confidential client's signing keys, and write and check client metadata documents.",
        discussion: """
            A web service that signs in to AT Protocol accounts is a confidential client (private_key_jwt): it \
            signs each token request with an ES256 key whose public half its client metadata document publishes. \
            keygen makes a key (kept sealed in the store, or written to a 0600 file), keys lists the store's keys \
            and the sessions bound to each, remove-key retires one, metadata writes the document, and check \
            checks any client's document against the AT Protocol profile.

            Examples:
              atoauth client keygen
              atoauth client metadata \\
                --client-id https://app.example.com/client-metadata.json \\
                --redirect-uri https://app.example.com/callback \\
                --out client-metadata.json
              atoauth client check client-metadata.json
            """,
        subcommands: [
            ClientKeygenCommand.self, ClientKeysCommand.self, ClientRemoveKeyCommand.self,
            ClientMetadataCommand.self, ClientCheckCommand.self,
        ]
    )
}
