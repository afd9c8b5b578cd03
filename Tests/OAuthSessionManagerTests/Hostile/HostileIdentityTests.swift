import ATOAuthTesting
import ATProtoIdentity
import Foundation
import Testing

/// The PLC directory or the handle resolver lies about the account (atproto.com/specs/handle, Handle Resolution): sign-in stops before
/// any metadata is fetched, and nothing is stored.
@Suite("A hostile identity stops sign-in before the PDS is contacted", .timeLimit(.minutes(1)))
struct HostileIdentityTests {
    @Test(
        "a DID document whose id is another DID is refused",
        arguments: [HostileScript.aliceHandle, HostileScript.aliceDID]
    )
    func documentOfAnotherDID(_ input: String) async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.documents[HostileScript.aliceDID]?.id = HostileScript.malloryDID }
            let error = await #expect(throws: IdentityError.self) { try await scene.start(input) }
            expectRefusal(error, .invalidDIDDocument("", field: "id"))
            #expect(scene.requests(to: "/.well-known/oauth-protected-resource").isEmpty)
            scene.expectNoPAR()
            try scene.expectNothingStored()
        }
    }

    @Test(
        "a handle that is not the first at:// alias of its DID's document is refused",
        arguments: [
            ["at://\(HostileScript.malloryHandle)"],
            ["at://\(HostileScript.malloryHandle)", "at://\(HostileScript.aliceHandle)"],
            ["https://\(HostileScript.aliceHandle)"],
            [],
        ]
    )
    func handleNotInAlsoKnownAs(_ aliases: [String]) async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.documents[HostileScript.aliceDID]?.alsoKnownAs = aliases }
            let error = await #expect(throws: IdentityError.self) { try await scene.start() }
            expectRefusal(error, .handleNotConfirmed(""))
            #expect(scene.requests(to: "/.well-known/oauth-protected-resource").isEmpty)
            scene.expectNoPAR()
            try scene.expectNothingStored()
        }
    }

    @Test("a DID whose document names a handle that resolves to another DID is refused")
    func handleResolvingElsewhere() async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.handles[HostileScript.aliceHandle] = HostileScript.malloryDID }
            let error = await #expect(throws: IdentityError.self) { try await scene.start(HostileScript.aliceDID) }
            expectRefusal(error, .handleNotConfirmed(""))
            #expect(scene.requests(to: "/.well-known/oauth-protected-resource").isEmpty)
            scene.expectNoPAR()
            try scene.expectNothingStored()
        }
    }

    @Test(
        "a PDS over http on a host that is not loopback is refused, even in development mode",
        arguments: ["http://pds.example.com", "http://pds.example.com:2583", "http://10.0.0.1", "http://[fd00::1]"]
    )
    func plainHTTPPDS(_ pds: String) async throws {
        try await HostileScene.run { scene in
            scene.hostile { $0.documents[HostileScript.aliceDID]?.pds = pds }
            let error = await #expect(throws: IdentityError.self) { try await scene.start() }
            expectRefusal(error, .invalidDIDDocument("", field: "serviceEndpoint"))
            #expect(error?.description.contains("https") == true)
            #expect(
                scene.server.requests.map(\.path) == [
                    "/xrpc/com.atproto.identity.resolveHandle", "/\(HostileScript.aliceDID)",
                ]
            )
            try scene.expectNothingStored()
        }
    }
}
