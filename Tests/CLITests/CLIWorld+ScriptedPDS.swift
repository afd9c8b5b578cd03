import ATOAuthTesting
import Foundation
import Keystore
import Testing

extension CLIWorld {
    /// Points the stored session of `did` at another PDS, as a changed DID document or a damaged store would: the
    /// next calls go there with the session's DPoP-bound token.
    func pointSession(of did: String, at pds: URL) throws {
        try rewriteSession(of: did) { $0["pds"] = pds.absoluteString }
    }

    /// Changes the stored session of `did` as a hostile server or a damaged disk might have left it.
    func rewriteSession(of did: String, _ change: (inout [String: Any]) -> Void) throws {
        let store = try EncryptedFileKeystore(directory: home, keySource: .keyFile(keyFile))
        var session = try storedSession(did)
        change(&session)
        try store.save(try JSONSerialization.data(withJSONObject: session), as: "session/\(did)")
    }

    /// Runs `body` in a world where alice is signed in and her session points at a loopback server answering every
    /// request through `handler`, which records what the CLI sends.
    static func withScriptedPDS(
        _ handler: @escaping LoopbackHTTPServer.Handler,
        _ body: (CLIWorld, LoopbackHTTPServer) async throws -> Void
    ) async throws {
        try await LoopbackHTTPServer.withServer(handler: handler) { pds in
            try await CLIWorld.with { world in
                try await world.signIn("alice.test")
                try world.pointSession(of: try #require(world.did("alice.test")), at: pds.url("/"))
                try await body(world, pds)
            }
        }
    }
}
