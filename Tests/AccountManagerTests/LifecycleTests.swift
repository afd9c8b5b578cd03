import ATClient
import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Keystore
import OAuthSessionManager
import Sandbox
import Synchronization
import Testing

@Suite("Account lifecycle: who is active after a removal, sessions the server ended, signing in again")
struct LifecycleTests {
    static let threeAccounts = SandboxConfiguration(
        accounts: ["alice.test", "bob.test", "carol.test"].map { SandboxAccount(handle: $0) },
        autoApprove: true
    )

    @Test("removing the active account makes the one signed in most recently active; then none")
    func handOver() async throws {
        try await SandboxWorld.with(Self.threeAccounts) { world in
            let accounts = world.accounts()
            let alice = try await world.signIn("alice.test", with: accounts)
            world.clock.advance(by: 10)
            let carol = try await world.signIn("carol.test", with: accounts)
            world.clock.advance(by: 10)
            let bob = try await world.signIn("bob.test", with: accounts)
            try await accounts.switchTo("alice.test")

            let first = try await accounts.remove("alice.test")
            #expect(first.removed == .account(alice.with(active: true), revocation: .revoked))
            #expect(first.active == .switched(to: bob))
            #expect(try await accounts.activeAccount()?.did == bob.did)

            #expect(try await accounts.remove("carol.test").active == .unchanged)
            #expect(try await accounts.activeAccount()?.did == bob.did)
            _ = carol

            #expect(try await accounts.remove("bob.test").active == .noneActive)
            #expect(try await accounts.activeAccount() == nil)
            await #expect(throws: AccountError.noAccounts) { try await accounts.account(nil) }
        }
    }

    @Test("accounts signed in at the same moment: the first by handle becomes active")
    func handOverOnATie() async throws {
        try await SandboxWorld.with(Self.threeAccounts) { world in
            var configuration = world.configuration
            let moment = world.clock.now()
            configuration.now = { moment }
            let accounts = world.accounts(configuration: configuration)
            for handle in ["carol.test", "bob.test", "alice.test"] {
                _ = try await world.signIn(handle, with: accounts)
            }
            let removed = try await accounts.remove("alice.test")
            guard case .switched(let successor) = removed.active else {
                Issue.record("no account became active: \(removed.active)")
                return
            }
            #expect(successor.handle?.rawValue == "bob.test")
        }
    }

    @Test("signing in again revokes the previous grant and replaces the DPoP key")
    func signInAgain() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let first = try await signIn(world, accounts)
            #expect(first.previousGrant == nil)
            let did = first.account.did.rawValue
            let oldKey = try world.keystore.load("dpop-key/\(did)")
            let second = try await signIn(world, accounts)
            #expect(second.previousGrant == .revoked)
            #expect(world.server.counters.revocations == 1)
            #expect(try world.keystore.load("dpop-key/\(did)") != oldKey)
            #expect(try await accounts.client(for: try ATIdentifier(validating: did)).getSession().did == did)
        }
    }

    @Test("a previous grant that cannot be revoked is reported, and the new session is kept")
    func signInAgainRevocationFails() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let first = try await signIn(world, accounts)
            let closed = try ClosedPort()
            try Self.setRevocationEndpoint(
                "http://127.0.0.1:\(closed.port)/oauth/revoke",
                of: first.account.did,
                in: world.keystore
            )

            let second = try await signIn(world, accounts)
            guard case .failed = second.previousGrant else {
                Issue.record("expected a failed revocation, got \(String(describing: second.previousGrant))")
                return
            }
            #expect(world.server.counters.revocations == 0)
            #expect(try await accounts.client().getSession().did == first.account.did.rawValue)
            _ = closed
        }
    }

    @Test("a sign-in cancelled while it revokes the replaced grant finishes: the account is signed in and active")
    func cancelledAfterStore() async throws {
        try await Self.withHangingRevocation(of: "alice.test") { world, accounts, alice, _ in
            let request = try await accounts.authorize("alice.test", client: try world.oauthClient())
            let redirect = try await world.approve(request)
            return { try await accounts.callback(redirect) }
        } then: { (_, accounts, alice, _, completed: AccountSignIn) async throws in
            guard case .failed = completed.previousGrant else {
                Issue.record("expected a revocation cut short, got \(String(describing: completed.previousGrant))")
                return
            }
            #expect(try await accounts.activeAccount()?.did == alice.did)
        }
    }

    @Test("a removal cancelled while it revokes finishes: the account is removed and the active one handed over")
    func removalCancelled() async throws {
        try await Self.withHangingRevocation(of: "bob.test") { _, accounts, _, bob in
            { try await accounts.remove(.did(bob.did)) }
        } then: { (_, accounts, alice, bob, removed: AccountRemoval) async throws in
            guard case .account(_, revocation: .failed) = removed.removed else {
                Issue.record("expected a revocation cut short, got \(removed.removed)")
                return
            }
            let successor = try #require(try await accounts.sessions.storedSession(for: alice.did))
            #expect(removed.active == .switched(to: Account(session: successor, active: true)))
            #expect(try await accounts.activeAccount()?.did == alice.did)
            #expect(try await accounts.sessions.storedSession(for: bob.did) == nil)
        }
    }

    /// Signs alice in, then bob (active); points `hanging`'s revocation at a port whose handshakes hang; runs the
    /// operation `prepare` returns, cancels it once the revocation hangs, and hands its result to `check`.
    private static func withHangingRevocation<Result: Sendable>(
        of hanging: String,
        _ prepare: (SandboxWorld, AccountManager, Account, Account) async throws -> @Sendable () async throws -> Result,
        then check: (SandboxWorld, AccountManager, Account, Account, Result) async throws -> Void
    ) async throws {
        let blackhole = try await BlackholeListener.start()
        do {
            try await SandboxWorld.with(Self.threeAccounts) { world in
                let accounts = world.accounts()
                let alice = try await world.signIn("alice.test", with: accounts)
                world.clock.advance(by: 10)
                let bob = try await world.signIn("bob.test", with: accounts)
                let endpoint = "http://127.0.0.1:\(blackhole.port)/oauth/revoke"
                try Self.setRevocationEndpoint(
                    endpoint,
                    of: hanging == "bob.test" ? bob.did : alice.did,
                    in: world.keystore
                )
                let operation = try await prepare(world, accounts, alice, bob)
                let running = Task { try await operation() }
                try await Waiting.until("the revocation's handshake to hang") { blackhole.hangingHandshakes > 0 }
                running.cancel()
                let result = await running.result
                // Closed, it refuses the handshake still in the world's connection pool, which would otherwise hold
                // the world's shutdown until its connect timeout.
                await blackhole.shutdown()
                try await check(world, accounts, alice, bob, try result.get())
            }
        } catch {
            await blackhole.shutdown()
            throw error
        }
        await blackhole.shutdown()
    }

    @Test("a cancelled call stops waiting for a refresh held up by the lock; a caller not cancelled still gets one")
    func refreshWaitCancelled() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let alice = try await world.signIn("alice.test", with: accounts)
            let sessions = accounts.sessions
            let finished = Happened()
            let patient = Task { try await sessions.refresh(did: alice.did, replacing: nil) }
            // Another process's refresh holds the session entry's lock.
            try await world.keystore.withLock(Session.entryName(did: alice.did)) {
                let cancelled = Task {
                    defer { finished.mark() }
                    return try await sessions.refresh(did: alice.did, replacing: nil)
                }
                cancelled.cancel()
                try await Waiting.until("the cancelled caller to stop waiting") { finished.isMarked }
                await #expect(throws: CancellationError.self) { try await cancelled.value }
            }
            let refreshed = try await patient.value
            #expect(refreshed.did == alice.did)
        }
    }

    @Test("a refresh the server refuses names the account and the permissions to sign in with again")
    func signedOutByServer() async throws {
        try await SandboxWorld.with { world in
            let scope = "atproto repo:app.bsky.feed.post?action=create"
            let accounts = world.accounts()
            let request = try await accounts.authorize("alice.test", client: try world.oauthClient(scope: scope))
            let alice = try await accounts.callback(try await world.approve(request)).account
            let session = try #require(try await accounts.sessions.storedSession(for: alice.did))
            try await revokeAtServer(world, session: session)

            let error = await #expect(throws: AccountError.self) { try await accounts.client().getSession() }
            #expect(error?.code == .signedOutByServer)
            #expect(error?.account == "alice.test")
            #expect(error?.requestedScope == scope)
            #expect(error?.description.hasPrefix("alice.test was signed out by the server: ") == true)
            #expect(error?.activeChange == .noneActive)
            #expect(error?.description.hasSuffix(" No account is active now.") == true)
            #expect(try await accounts.sessions.storedSession(for: alice.did) == nil)

            let none = await #expect(throws: AccountError.self) { try await accounts.account(nil) }
            #expect(none?.code == .noAccounts)
        }
    }

    @Test("when the server ends the active account's session, the account signed in most recently becomes active")
    func serverEndedActiveAccountHandsOver() async throws {
        try await SandboxWorld.with(Self.threeAccounts) { world in
            let accounts = world.accounts()
            for handle in ["bob.test", "carol.test", "alice.test"] {
                _ = try await world.signIn(handle, with: accounts)
                world.clock.advance(by: 10)
            }
            let alice = try await accounts.account("alice.test")
            let session = try #require(try await accounts.sessions.storedSession(for: alice.did))
            try await revokeAtServer(world, session: session)

            let error = await #expect(throws: AccountError.self) { try await accounts.client().getSession() }
            guard case .switched(let successor)? = error?.activeChange else {
                Issue.record("expected a new active account, got \(String(describing: error?.activeChange))")
                return
            }
            #expect(successor.handle?.description == "carol.test", "the most recent sign-in of those left")
            #expect(error?.description.hasSuffix(" carol.test is the active account now.") == true)
            #expect(try await accounts.account(nil).handle?.description == "carol.test")
        }
    }

    @Test("a switch to an account another process removes meanwhile fails, and leaves the active one as it was")
    func switchRacesRemoval() async throws {
        try await SandboxWorld.with(Self.threeAccounts) { world in
            let remover = world.accounts()
            _ = try await world.signIn("bob.test", with: remover)
            world.clock.advance(by: 10)
            let alice = try await world.signIn("alice.test", with: remover)
            let raced = LockHookKeystore(world.keystore, before: "accounts/active") {
                _ = try await remover.remove("bob.test")
            }
            let switcher = world.accounts(keystore: raced)
            let error = await #expect(throws: AccountError.self) { try await switcher.switchTo("bob.test") }
            #expect(error?.code == .noSuchAccount)
            #expect(try await remover.activeAccount()?.did == alice.did)
            #expect(try await switcher.accounts().map(\.handle?.description) == ["alice.test"])
        }
    }

    @Test("an active entry left naming a deleted session is handed over on the next look, and the error says so")
    func danglingActiveEntryHandsOver() async throws {
        try await SandboxWorld.with(Self.threeAccounts) { world in
            let accounts = world.accounts()
            for handle in ["bob.test", "alice.test"] {
                _ = try await world.signIn(handle, with: accounts)
                world.clock.advance(by: 10)
            }
            let alice = try await accounts.account("alice.test")
            try world.keystore.delete(Session.entryName(did: alice.did))

            let error = await #expect(throws: AccountError.self) { try await accounts.account(nil) }
            #expect(error?.code == .activeAccountSignedOut)
            #expect(error?.description.hasSuffix(" bob.test is the active account now.") == true)
            #expect(try await accounts.account(nil).handle?.description == "bob.test")
        }
    }

    /// Points the stored session of `did` at another revocation endpoint.
    private static func setRevocationEndpoint(_ endpoint: String, of did: DID, in keystore: InMemoryKeystore) throws {
        let name = Session.entryName(did: did)
        let data = try #require(try keystore.load(name))
        var stored = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        stored["revocationEndpoint"] = endpoint
        try keystore.save(try JSONSerialization.data(withJSONObject: stored), as: name)
    }

    private func signIn(_ world: SandboxWorld, _ accounts: AccountManager) async throws -> AccountSignIn {
        let request = try await accounts.authorize("alice.test", client: try world.oauthClient())
        return try await accounts.callback(try await world.approve(request))
    }

    /// Revokes the refresh token of `session` at the authorization server, as its client would, with a proof of the
    /// session's DPoP key.
    private func revokeAtServer(_ world: SandboxWorld, session: Session) async throws {
        guard case .oauth(let grant) = session.credential else {
            Issue.record("not an OAuth session")
            return
        }
        let form = [("token", try #require(session.refreshToken)), ("client_id", grant.clientID)]
            .map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&")
        let keyEntry = try #require(try world.keystore.load(Session.keyEntryName(did: session.did)))
        let key = try DPoPKey(persistedRepresentation: keyEntry)
        let response = try await DPoPRequestExecutor(transport: world.transport, key: key).send(
            HTTPRequest(
                method: .post,
                url: world.endpoints.authorizationServer.appendingPathComponent("oauth/revoke"),
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data(form.utf8)
            )
        )
        #expect(response.status == 200)
    }
}

extension Account {
    fileprivate func with(active: Bool) -> Account {
        var copy = self
        copy.active = active
        return copy
    }
}

/// Whether something happened, marked by one task and looked at by another.
private final class Happened: Sendable {
    private let state = Mutex(false)

    func mark() { state.withLock { $0 = true } }

    var isMarked: Bool { state.withLock { $0 } }
}
