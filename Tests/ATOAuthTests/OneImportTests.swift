import ATOAuth
import ATOAuthTesting
import Testing

/// `import ATOAuth` is the one import an app needs: these tests import nothing else of atoauth's but the testing kit.
@Suite("One import: ATOAuth")
struct OneImportTests {
    @Test("an app signs in and calls XRPC with import ATOAuth alone")
    func signsInAndCallsXRPC() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let alice = try await world.signIn("alice.test", with: accounts)
            let client = try await accounts.client(for: .did(alice.did))
            #expect(try await client.getSession().handle == "alice.test")
        }
    }

    @Test("an app handles a failure by its category, without naming the error's type")
    func handlesFailuresByCategory() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let error = await #expect(throws: (any Error).self) {
                _ = try await accounts.client(for: "bob.test")
            }
            let categorized = try #require(error as? any CategorizedError)
            #expect(categorized.category == .signInNeeded)
        }
    }

    @Test("the stores, the transport and the listener an app constructs are named by the one import")
    func namesWhatAnAppConstructs() async throws {
        let keystore: any Keystore = InMemoryKeystore()
        let stored = try await AsyncHTTPClientTransport.withTransport { transport in
            try await AccountManager(keystore: keystore, transport: transport).accounts()
        }
        #expect(stored.isEmpty)
        let listener = try await LoopbackCallbackListener.start()
        let client = try OAuthClient.loopback(redirectURI: listener.redirectURI)
        #expect(client.redirectURI == listener.redirectURI)
        await listener.finish(with: .signedIn(as: "alice.test"))
    }
}
