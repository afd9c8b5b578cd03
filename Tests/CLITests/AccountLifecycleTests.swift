import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Keystore
import Testing

@Suite("Account lifecycle: removal hands the active account over, server sign-outs, signing in again", .serialized)
struct AccountLifecycleTests {
    @Test("removing the active account makes the one signed in most recently active and says so; then none is")
    func removeActive() async throws {
        let accounts = ["--test-account", "alice.test", "--test-account", "bob.test", "--test-account", "carol.test"]
        try await CLIWorld.with(accounts) { world in
            for handle in ["alice.test", "carol.test", "bob.test"] { try await world.signIn(handle) }
            let alice = try #require(world.did("alice.test"))
            let bob = try #require(world.did("bob.test"))
            let carol = try #require(world.did("carol.test"))
            #expect(try await world.atoauth("accounts", "switch", "alice.test").status == 0)

            // alice was active: bob, signed in last, takes over (not carol, the first by handle after alice).
            let first = try await world.atoauth("accounts", "remove", "alice.test")
            #expect(first.status == 0, "\(first.stderr)")
            #expect(
                first.stdout
                    == "Removed alice.test (\(alice)); revocation: revoked.\nbob.test (\(bob)) is the active account now.\n"
            )
            #expect(try await world.atoauth("whoami").stdout.hasPrefix("bob.test "))

            // carol is not active: nothing changes, and --json says which account is active.
            let second = try await world.atoauth("accounts", "remove", "carol.test", "--json")
            #expect(second.status == 0, "\(second.stderr)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any]
            )
            #expect(object["did"] as? String == carol)
            #expect(object["revocation"] as? String == "revoked")
            #expect(object["activeChanged"] as? Bool == false)
            #expect(object["active"] as? Bool == false, "carol was not the active account")
            #expect((object["activeAccount"] as? [String: Any])?["did"] as? String == bob)

            let last = try await world.atoauth("accounts", "remove", "bob.test", "--json")
            let lastObject = try #require(
                try JSONSerialization.jsonObject(with: Data(last.stdout.utf8)) as? [String: Any]
            )
            #expect(lastObject["activeChanged"] as? Bool == true)
            #expect(lastObject["active"] as? Bool == true, "bob was the active account")
            #expect(lastObject["activeAccount"] is NSNull)
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("accounts/active") })
            #expect(try await world.atoauth("whoami").status == 3)
        }
    }

    @Test("removing the last account says that none is signed in now")
    func removeLast() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let removed = try await world.atoauth("accounts", "remove", "alice.test")
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(
                removed.stdout.hasSuffix(
                    "No account is signed in now, so none is active; sign in with `atoauth accounts add <handle>`.\n"
                )
            )
        }
    }

    @Test("a session the server ended: exit 3, the account is named with the exact command to sign in again")
    func signedOutByServer() async throws {
        try await CLIWorld.with { world in
            let scope = "atproto repo:app.bsky.feed.post?action=create"
            let added = try await world.atoauth("accounts", "add", "alice.test", "--scope", scope)
            #expect(added.status == 0, "\(added.stderr)")
            let did = try #require(world.did("alice.test"))
            try await world.revokeAtServer(sessionOf: did)

            let whoami = try await world.atoauth("whoami")
            #expect(whoami.status == 3, "\(whoami.stderr)")
            #expect(
                whoami.stderr.hasPrefix(
                    "alice.test was signed out by the server: the refresh was refused (invalid_grant"
                ),
                "\(whoami.stderr)"
            )
            let command = "atoauth accounts add alice.test --scope '\(scope)'"
            #expect(whoami.stderr.contains("Sign in again with `\(command)`."), "\(whoami.stderr)")
            #expect(whoami.stderr.contains("No account is active now."), "\(whoami.stderr)")
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") && !$0.hasPrefix("dpop-key/") })

            // No other account was signed in, so none is active: the next command says so, naming no DID.
            let again = try await world.atoauth("whoami", "--json")
            #expect(again.status == 3)
            let error = try #require(try JSONSerialization.jsonObject(with: Data(again.stderr.utf8)) as? [String: Any])
            let message = try #require(error["message"] as? String)
            #expect(message.hasPrefix("No account is signed in here."), "\(message)")
            #expect(!message.contains(did), "\(message)")

            // The command given signs the same account in again, with the same permissions.
            let signedIn = try await world.atoauth("accounts", "add", "alice.test", "--scope", scope)
            #expect(signedIn.status == 0, "\(signedIn.stderr)")
            #expect(try world.storedSession(did)["requestedScope"] as? String == scope)
            #expect(try await world.atoauth("whoami").status == 0)
        }
    }

    @Test("signing in again revokes the old grant: its refresh token is refused, and its DPoP key is replaced")
    func signInAgain() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let did = try #require(world.did("alice.test"))
            let old = try world.storedSession(did)
            let oldRefreshToken = try #require(old["refreshToken"] as? String)
            let oldKey = try #require(try keystore(world).load("dpop-key/\(did)"))

            let again = try await world.atoauth("accounts", "add", "alice.test")
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stderr.contains("The previous session of alice.test was replaced and its tokens revoked"))
            #expect(try await world.sandbox.counters().revocations == 1)
            #expect(try keystore(world).load("dpop-key/\(did)") != oldKey)
            #expect(try world.storedSession(did)["refreshToken"] as? String != oldRefreshToken)

            // The old refresh token, with the old key it is bound to, is no longer accepted.
            let answer = try await refresh(
                world,
                token: oldRefreshToken,
                key: try DPoPKey(persistedRepresentation: oldKey)
            )
            #expect(answer.status == 400)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("unknown or revoked"))
            #expect(try await world.atoauth("whoami").status == 0)

            let json = try await world.atoauth("accounts", "add", "alice.test", "--json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["previousSession"] as? String == "revoked")
            #expect(try await world.sandbox.counters().revocations == 2)
        }
    }

    @Test("the refresh request the old grant is tested with works on a live grant")
    func refreshRequestWorks() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let did = try #require(world.did("alice.test"))
            let token = try #require(try world.storedSession(did)["refreshToken"] as? String)
            let key = try DPoPKey(persistedRepresentation: try #require(try keystore(world).load("dpop-key/\(did)")))
            #expect(try await refresh(world, token: token, key: key).status == 200)
        }
    }

    private func keystore(_ world: CLIWorld) throws -> EncryptedFileKeystore {
        try EncryptedFileKeystore(directory: world.home, keySource: .keyFile(world.keyFile))
    }

    /// Sends a refresh grant with `token`, proved with `key`, as the client that signed in.
    private func refresh(_ world: CLIWorld, token: String, key: DPoPKey) async throws -> HTTPResponse {
        let did = try #require(world.did("alice.test"))
        let clientID = try #require(try world.storedSession(did)["clientID"] as? String)
        let form = [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", clientID)]
        let body = form.map { "\($0.0)=\(CLIWorld.formEncoded($0.1))" }.joined(separator: "&")
        return try await AsyncHTTPClientTransport.withTransport { transport in
            try await DPoPRequestExecutor(transport: transport, key: key).send(
                HTTPRequest(
                    method: .post,
                    url: world.sandbox.authorizationServer.appendingPathComponent("oauth/token"),
                    headers: ["Content-Type": "application/x-www-form-urlencoded"],
                    body: Data(body.utf8)
                )
            )
        }
    }
}
