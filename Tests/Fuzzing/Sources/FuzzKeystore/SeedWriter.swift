import ATProtoSyntax
import DPoPRequestExecutor
import Foundation
import FuzzSupport

@testable import AccountManager
@testable import Keystore
@testable import OAuthSessionManager

/// Writes this target's seed corpus with the real code (`FuzzKeystore --write-seeds <directory>`): each file is a
/// mode byte and the bytes the store writes, so the corpus follows the formats as they are.
struct SeedWriter {
    let directory: URL
    let store: EncryptedFileKeystore
    let storeDirectory: URL
    let reopenedMetadata: String
    let scratch: URL

    private let now = Date(timeIntervalSince1970: 1_767_225_600)

    func write() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let sessions = SessionStore(keystore: store)
        let session = try self.session()
        try runBlockingThrowing { try await sessions.save(session) }
        let layout = StoreLayout(directory: storeDirectory.path)
        try seed("entry-session", 0, read(layout.entry(EntryName(Session.entryName(did: session.did)))))
        try store.save(Data(), as: "accounts")
        try seed("entry-empty", 0, read(layout.entry(EntryName("accounts"))))

        try seed("metadata-key-file", 1, read(reopenedMetadata))
        let passphraseStore = scratch.appending(path: "passphrase")
        _ = try EncryptedFileKeystore(directory: passphraseStore, keySource: .passphrase("fuzz", parameters: .minimum))
        try seed("metadata-passphrase", 1, read(StoreLayout(directory: passphraseStore.path).metadata))

        try seed("value-session", 2, SessionStore.encoder.encode(session))
        try seed("value-pending", 2, SessionStore.encoder.encode(pending()))

        let longName = "pending/" + String(repeating: "~", count: 120)
        try store.save(Data(), as: longName)
        let hashed = try EntryName(longName)
        try seed("name-hashed", 3, Array(hashed.stem.utf8) + [0] + Array(read(layout.nameFile(hashed))))
        try seed("name-session", 3, Array(EntryName(Session.entryName(did: session.did)).stem.utf8))

        let nonces = scratch.appending(path: "seed-nonces.json")
        try NonceFile.write(
            ["https://auth.example.com": .init(nonce: "lr9Yr4gDC7pMt4vVrZpZ0Q", receivedAt: now)],
            to: nonces
        )
        try seed("nonces", 4, Data(contentsOf: nonces))
    }

    private func seed(_ name: String, _ mode: UInt8, _ bytes: some Sequence<UInt8>) throws {
        try Data([mode] + bytes).write(to: directory.appending(path: name))
    }

    private func read(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    private func session() throws -> Session {
        Session(
            did: try DID(validating: "did:plc:ewvi7nxzyoun6zhxrhs64oiz"),
            handle: try Handle(validating: "alice.example.com"),
            pds: URL(string: "https://pds.example.com")!,
            scope: "atproto transition:generic",
            requestedScope: "atproto transition:generic",
            accessToken: "seed-access-token-protecting-nothing",
            accessTokenExpiresAt: now.addingTimeInterval(3_600),
            refreshToken: "seed-refresh-token-protecting-nothing",
            createdAt: now,
            updatedAt: now,
            credential: .oauth(
                OAuthGrant(
                    issuer: "https://auth.example.com",
                    clientID: "http://localhost?redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback&scope=atproto",
                    tokenEndpoint: URL(string: "https://auth.example.com/oauth/token")!,
                    revocationEndpoint: URL(string: "https://auth.example.com/oauth/revoke")!
                )
            )
        )
    }

    private func pending() -> PendingAuthorization {
        PendingAuthorization(
            state: "M2Y4ZjQ1YjEtZmYxNy00YjZiLWI2MTQtOWY0NDZhMjE",
            codeVerifier: "seed-verifier-protecting-nothing-0123456789abcdefghij",
            dpopKey: Data(),
            issuer: "https://auth.example.com",
            expectedDID: "did:plc:ewvi7nxzyoun6zhxrhs64oiz",
            clientID: "http://localhost",
            redirectURI: "http://127.0.0.1/callback",
            scope: "atproto transition:generic",
            tokenEndpoint: URL(string: "https://auth.example.com/oauth/token")!,
            revocationEndpoint: nil,
            createdAt: now,
            serverIssuedNonce: true
        )
    }
}
