import ATProtoSyntax
import AccountManager
import DPoPRequestExecutor
import Foundation
import Gateway
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

/// A gateway over a benchmark's accounts, on 127.0.0.1 and a port the system chose.
struct BenchGateway {
    let server: GatewayServer
    let token: String
    let port: Int
    private let spool: URL
    private let serving: Task<Void, any Error>

    /// Starts a gateway over `accounts`, appending to `auditLog` when given, and waits until it listens.
    static func start(_ accounts: AccountManager, auditLog: URL? = nil) async throws -> BenchGateway {
        let spool = FileManager.default.temporaryDirectory.appendingPathComponent("bench-spool-\(UUID())")
        var configuration = GatewayConfiguration(
            listen: .tcp(host: "127.0.0.1", port: 0),
            token: GatewayToken.generate(),
            spoolDirectory: spool,
            maximumConcurrentRequests: 4096
        )
        configuration.auditLog = auditLog
        let server = try GatewayServer(configuration: configuration, accounts: accounts)
        let serving = Task { try await server.run() }
        guard case .tcp(_, let port) = try await server.boundAddress() else {
            serving.cancel()
            throw BenchError("the gateway is not on TCP")
        }
        return BenchGateway(server: server, token: configuration.token, port: port, spool: spool, serving: serving)
    }

    /// Stops the gateway and removes its spool directory.
    func stop() async {
        serving.cancel()
        _ = try? await serving.value
        try? FileManager.default.removeItem(at: spool)
    }
}
