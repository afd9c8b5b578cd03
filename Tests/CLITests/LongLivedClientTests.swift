import ATClient
import ATProtoIdentity
import ATProtoSyntax
import AccountManager
import Foundation
import HTTPTransport
import Keystore
import Testing

@Suite("A long-lived library client beside the CLI, as two processes sharing one store")
struct LongLivedClientTests {
    /// A service's long-lived client (this process) meets a broader sign-in by `atoauth` (a second process).
    ///
    /// The service's next call is checked against the session now stored, not against the copy it read first.
    @Test("a call first refused locally goes through once another process signs in with a broader scope")
    func broaderScopeFromAnotherProcess() async throws {
        try await CLIWorld.with { world in
            let narrow = try await world.atoauth(
                "accounts",
                "add",
                "alice.test",
                "--scope",
                "atproto repo:app.bsky.feed.like?action=create"
            )
            #expect(narrow.status == 0, "\(narrow.stderr)")
            let did = try #require(world.did("alice.test"))
            let keystore = try EncryptedFileKeystore(directory: world.home, keySource: .keyFile(world.keyFile))
            var configuration = AccountManager.Configuration()
            let environment = world.sandbox.environment
            configuration.identity = IdentityResolver.Configuration(
                plcDirectory: try #require(environment["ATOAUTH_PLC_DIRECTORY"].flatMap { URL(string: $0) }),
                handleResolverService: environment["ATOAUTH_HANDLE_RESOLVER"].flatMap { URL(string: $0) }
            )
            configuration.allowHTTPLoopback = true
            try await AsyncHTTPClientTransport.withTransport { transport in
                let accounts = AccountManager(keystore: keystore, transport: transport, configuration: configuration)
                let client = try await accounts.client(for: try ATIdentifier(validating: did))
                let post = Data(#"{"repo":"\#(did)","collection":"app.bsky.feed.post","record":{"text":"hi"}}"#.utf8)
                let createRecord = try NSID(validating: "com.atproto.repo.createRecord")
                let refused = await #expect(throws: MissingPermissionError.self) {
                    try await client.procedure(createRecord, input: post)
                }
                #expect(refused?.refusedLocally == true)

                let broad = try await world.atoauth("accounts", "add", "alice.test", "--scope", "atproto repo:*")
                #expect(broad.status == 0, "\(broad.stderr)")

                let created = try await client.procedure(createRecord, input: post)
                #expect(created.http.status == 200)
            }
        }
    }
}
