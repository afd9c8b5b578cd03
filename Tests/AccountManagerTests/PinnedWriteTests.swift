import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import Foundation
import HTTPTransport
import Keystore
import Sandbox
import Testing

@Suite("An account's writes connect to the checked address of its PDS; its reads use the kept-alive connections")
struct PinnedWriteTests {
    /// Signs bob in with his app password, then points his stored session at `https://pds.example`.
    private static func bobAtNamedPDS(_ world: SandboxWorld) async throws -> String {
        let accounts = world.accounts()
        let bob = try await world.signInWithAppPassword("bob.test", with: accounts)
        let name = "session/" + bob.did.rawValue
        let stored = try #require(try world.keystore.load(name))
        var object = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: Any])
        object["pds"] = "https://pds.example"
        try world.keystore.save(try JSONSerialization.data(withJSONObject: object), as: name)
        return bob.did.rawValue
    }

    @Test("a POST is pinned to the address its host was checked at; a GET goes out unpinned")
    func writesArePinned() async throws {
        try await SandboxWorld.with { world in
            let did = try await Self.bobAtNamedPDS(world)
            let recorder = PinningRecorder(ScriptedTransport(responses: [.json(["ok": true]), .json(["ok": true])]))
            var configuration = world.configuration
            configuration.addressResolver = FakeAddressResolver(table: ["pds.example": ["93.184.216.34"]])
            let accounts = world.accounts(transport: recorder, configuration: configuration)
            let connection = try await accounts.connection(for: try DID(validating: did))
            let write = try await connection.send(
                .post,
                path: "/xrpc/com.atproto.repo.createRecord",
                body: Data("{}".utf8)
            )
            #expect(write.status == 200)
            let read = try await connection.send(.get, path: "/xrpc/com.atproto.server.getSession")
            #expect(read.status == 200)
            #expect(recorder.connections == ["93.184.216.34", nil])
        }
    }

    @Test("a POST to a PDS whose name now resolves to a private address is refused before anything is sent")
    func privateAddressRefused() async throws {
        try await SandboxWorld.with { world in
            let did = try await Self.bobAtNamedPDS(world)
            let recorder = PinningRecorder(ScriptedTransport(responses: [.json(["ok": true])]))
            var configuration = world.configuration
            configuration.addressResolver = FakeAddressResolver(table: ["pds.example": ["93.184.216.34", "10.0.0.7"]])
            let accounts = world.accounts(transport: recorder, configuration: configuration)
            let connection = try await accounts.connection(for: try DID(validating: did))
            await #expect(throws: FetchError.self) {
                try await connection.send(.post, path: "/xrpc/com.atproto.repo.createRecord", body: Data("{}".utf8))
            }
            #expect(recorder.connections.isEmpty)
        }
    }
}
