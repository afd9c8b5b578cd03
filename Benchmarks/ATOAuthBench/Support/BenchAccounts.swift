import ATProtoSyntax
import AccountManager
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Keystore

/// Accounts signed in at a server that checks no token (the plain server), as many as a scenario needs.
enum BenchAccounts {
    /// The DID of account `index`: a did:plc of 24 base32 characters.
    static func did(_ index: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        var value = index
        var characters = Array(repeating: Character("a"), count: 24)
        for position in stride(from: 23, through: 0, by: -1) {
            characters[position] = alphabet[value % 32]
            value /= 32
        }
        return "did:plc:" + String(characters)
    }

    /// An account manager over an in-memory store holding `count` sessions at `pds`, each with its own DPoP key; the
    /// first is active.
    static func manager(count: Int, pds: URL, transport: any HTTPTransport) async throws -> AccountManager {
        let keystore = InMemoryKeystore()
        for index in 0..<count {
            _ = try await StoredSession.save(
                did: did(index),
                handle: "user\(index).test",
                pds: pds,
                accessToken: Workload.accessToken,
                key: DPoPKey(),
                now: Date(),
                into: keystore
            )
        }
        let accounts = AccountManager(keystore: keystore, transport: transport)
        _ = try await accounts.switchTo(.did(try DID(validating: did(0))))
        return accounts
    }
}
