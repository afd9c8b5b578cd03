// What atoauth reads back from the disk: encrypted keystore entry files (XChaCha20-Poly1305 under the store key),
// the store's `keystore.json`, the values inside entries (sessions, DPoP keys, pending sign-ins), the file names
// of a store directory, and the plain DPoP nonce file. A damaged file is reported, left as it is, and never shows
// a secret.
//
// Input: a first byte choosing what the rest is (its value modulo 5): an entry file, a `keystore.json`, an
// entry's decrypted value, a file name in the store (then a NUL and the contents of its name file), a nonce file.

import ATProtoSyntax
import DPoPRequestExecutor
import Foundation
import FuzzSupport

@testable import AccountManager
@testable import Keystore
@testable import OAuthSessionManager

let root = makeScratchDirectory()
nonisolated(unsafe) var rootToRemove = root
atexit { try? FileManager.default.removeItem(at: rootToRemove) }

/// The key of both stores: a test key that protects nothing.
///
/// It is fixed so that the committed corpus, written by `--write-seeds`, opens under it.
let keyFile = root.appending(path: "fuzz.key")
write((0..<32).map { UInt8($0) }, to: keyFile.path)

let did = try! DID(validating: "did:plc:ewvi7nxzyoun6zhxrhs64oiz")
let storeDirectory = root.appending(path: "store")
let store = try! EncryptedFileKeystore(directory: storeDirectory, keySource: .keyFile(keyFile))
let sessions = SessionStore(keystore: store)
let entryFile = StoreLayout(directory: storeDirectory.path).entry(try! EntryName(Session.entryName(did: did)))

/// A second store whose `keystore.json` each input replaces before opening it again.
let reopened = root.appending(path: "reopened")
_ = try! EncryptedFileKeystore(directory: reopened, keySource: .keyFile(keyFile))
let metadataFile = StoreLayout(directory: reopened.path).metadata
let nonceFile = root.appending(path: "nonces.json")

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--write-seeds" {
    try! SeedWriter(
        directory: URL(fileURLWithPath: CommandLine.arguments[2]),
        store: store,
        storeDirectory: storeDirectory,
        reopenedMetadata: metadataFile,
        scratch: root
    ).write()
    exit(0)
}

/// The session stored for `did`, read as the code reads it (the session store is async; this thread waits).
func storedSession() throws -> Session? {
    let (sessions, did) = (sessions, did)
    return try runBlockingThrowing { try await sessions.session(did) }
}

/// The secrets a decoded session holds, when long enough that finding them in text is not chance.
func secrets(of session: Session) -> [String] {
    let shown = [session.did.rawValue, session.handle?.rawValue ?? "", session.pds.absoluteString, session.scope]
    return [session.accessToken, session.refreshToken].compactMap(\.self).filter { secret in
        secret.count >= 8 && !shown.contains { $0.contains(secret) }
    }
}

Fuzzer.run { input in
    guard let (mode, rest) = input.modeAndRest else { return }
    switch mode % 5 {
    case 0:
        checkRefused(rest.bytes, at: entryFile) { _ = try storedSession() }
    case 1:
        checkRefused(rest.bytes, at: metadataFile) {
            _ = try EncryptedFileKeystore(directory: reopened, keySource: .keyFile(keyFile))
        }
    case 2:
        try! store.save(rest.data, as: Session.entryName(did: did))
        do {
            if let session = try storedSession() {
                let encoded = try SessionStore.encoder.encode(session)
                let decoded = try SessionStore.decoder.decode(Session.self, from: encoded)
                invariant(decoded == session, "a session round-trips")
                var dumped = ""
                dump(session, to: &dumped)
                let printed = [session.description, session.debugDescription, String(reflecting: session), dumped]
                for secret in secrets(of: session) {
                    invariant(!printed.contains { $0.contains(secret) }, "a session never prints its tokens")
                }
            }
        } catch {
            invariantPrintable(error)
        }
        try! store.save(rest.data, as: Session.keyEntryName(did: did))
        let (sessions, did) = (sessions, did)
        do { _ = try runBlockingThrowing { try await sessions.key(for: did) } } catch { invariantPrintable(error) }
        try! store.save(rest.data, as: PendingAuthorization.entryName(state: "fuzz"))
        try! runBlockingThrowing { try await sessions.purgeExpiredPending(now: Date()) }
    case 3:
        let parts = rest.bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let stem = Array(parts[0])
        guard !stem.isEmpty, !stem.contains(UInt8(ascii: "/")), stem.count <= 200 else { return }
        let directory = Array(storeDirectory.path.utf8) + [UInt8(ascii: "/")]
        let entry = directory + stem + Array(StoreLayout.entrySuffix.utf8)
        let name = directory + stem + Array(StoreLayout.nameSuffix.utf8)
        guard access(entry.map { CChar(bitPattern: $0) } + [0], F_OK) != 0 else { return }
        write([], to: entry)
        write(parts.count > 1 ? Array(parts[1]) : [], to: name)
        defer {
            remove(entry)
            remove(name)
        }
        for listed in try! store.names() {
            let entryName = try? EntryName(listed)
            invariant(entryName != nil, "a listed name \(listed.debugDescription) is a valid name")
            invariant(
                FileManager.default.fileExists(atPath: StoreLayout(directory: storeDirectory.path).entry(entryName!)),
                "a listed name \(listed.debugDescription) has its entry file"
            )
        }
    default:
        write(rest.bytes, to: nonceFile.path)
        for (origin, entry) in NonceFile.read(nonceFile) {
            invariant(origin.count <= 300, "a restored origin is at most 300 characters")
            invariant(entry.nonce.utf8.count <= DPoPNonceSyntax.maximumLength, "a restored nonce is at most 1024 bytes")
        }
    }
}
