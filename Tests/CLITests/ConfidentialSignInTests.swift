import ATOAuthTesting
import Foundation
import HTTPTransport
import OAuthMetadata
import OAuthSessionManager
import Synchronization
import Testing

/// The keys a test's client document publishes, changed while it is served.
final class PublishedKeys: Sendable {
    private let keys: Mutex<[ClientKey]>

    init(_ keys: [ClientKey]) { self.keys = Mutex(keys) }

    var jwks: [[String: String]] { keys.withLock { keys in keys.map { $0.publicJWK } } }

    func replace(with keys: [ClientKey]) { self.keys.withLock { $0 = keys } }
}

/// `accounts add --client-key`: an operator signs a bot's account in from a terminal as a confidential client, the
/// browser ending on the service's own redirect page, whose address is pasted.
@Suite("Signing in as a confidential client from the terminal", .serialized)
struct ConfidentialSignInTests {
    /// Serves a confidential web client's metadata document publishing `keys`, whose redirect is a page on the same
    /// loopback server, and runs `body` with the document's URL.
    static func withClientDocument<T>(
        publishing keys: PublishedKeys,
        _ body: (URL) async throws -> T
    ) async throws -> T {
        try await withServedDocuments { origin, _ in
            [
                "client_id": origin + "/client-metadata.json", "application_type": "web",
                "redirect_uris": [origin + "/signed-in"], "scope": "atproto transition:generic",
                "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                "token_endpoint_auth_method": "private_key_jwt", "token_endpoint_auth_signing_alg": "ES256",
                "dpop_bound_access_tokens": true, "jwks": ["keys": keys.jwks],
            ]
        } _: { origin in
            try await body(try #require(URL(string: origin + "/client-metadata.json")))
        }
    }

    /// Runs `body` in a world with a client document publishing one new key, given where the key's file goes (not
    /// written yet): the set-up most tests here share.
    static func withOneKeyClient(_ body: (CLIWorld, URL, ClientKey, URL) async throws -> Void) async throws {
        let key = ClientKey()
        try await withClientDocument(publishing: PublishedKeys([key])) { clientID in
            try await CLIWorld.with { world in
                try await body(world, clientID, key, world.directory.appendingPathComponent("client-key.jwk"))
            }
        }
    }

    /// Signs alice.test in as the confidential client with `key`, written to `keyFile`, pasting the redirect address.
    static func operatorSignIn(
        _ world: CLIWorld,
        _ clientID: URL,
        _ key: ClientKey,
        _ keyFile: URL
    ) async throws -> (before: String, redirect: URL, result: CLIProcess.Result) {
        try key.privateJWK.write(to: keyFile)
        let running = try world.startSignIn(
            "alice.test",
            ["--client-id", clientID.absoluteString, "--client-key", keyFile.path, "--no-browser"]
        )
        return try await world.pasteRedirect(into: running)
    }

    @Test("Ctrl-C while a confidential sign-in waits for its redirect exits 130 and leaves no pending sign-in")
    func interrupt() async throws {
        try await Self.withOneKeyClient { world, clientID, key, keyFile in
            try key.privateJWK.write(to: keyFile)
            let running = try world.startSignIn(
                "alice.test",
                ["--client-id", clientID.absoluteString, "--client-key", keyFile.path, "--no-browser"]
            )
            _ = try await world.interruptWaitingSignIn(running)
        }
    }

    @Test("The pasted redirect signs the account in bound to the key; the key never shows; a removed key ends it")
    func operatorSignIn() async throws {
        let key = ClientKey()
        let published = PublishedKeys([key])
        try await Self.withClientDocument(publishing: published) { clientID in
            // Access tokens of 2 s: the last command below must refresh.
            try await CLIWorld.with(["--access-token-lifetime", "2"]) { world in
                let keyFile = world.directory.appendingPathComponent("client-key.jwk")
                let (before, redirect, result) = try await Self.operatorSignIn(world, clientID, key, keyFile)
                #expect(result.status == 0, "\(before)\n\(result.stderr)")
                #expect(redirect.path == "/signed-in")
                #expect(result.stderr.contains("Added the client key \(key.keyID)"), "\(result.stderr)")

                let status = try await world.atoauth("accounts", "status", "--json")
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
                )
                #expect(object["client"] as? String == "confidential")
                #expect(object["clientKeyID"] as? String == key.keyID)
                // The session's end: its refresh token's expiry, three months after the last refresh (the sandbox,
                // as the reference server, gives no refresh_token_expires_in), well before two years from sign-in.
                let formatter = ISO8601DateFormatter()
                let refreshedAt = try #require((object["refreshedAt"] as? String).flatMap(formatter.date(from:)))
                let end = try #require((object["sessionEndsAtLatest"] as? String).flatMap(formatter.date(from:)))
                #expect(abs(end.timeIntervalSince(refreshedAt) - 7_889_400) <= 1, "\(status.stdout)")
                let text = try await world.atoauth("accounts", "status")
                #expect(text.stdout.contains("when its refresh token expires"), "\(text.stdout)")
                #expect(try await world.atoauth("whoami").status == 0)

                let secret = try #require(
                    (try JSONSerialization.jsonObject(with: key.privateJWK) as? [String: String])?["d"]
                )
                for output in [before, result.stdout, result.stderr, status.stdout] {
                    #expect(!output.contains(secret))
                }
                for file in try world.files() where file.url != keyFile {
                    #expect(file.bytes.range(of: Data(secret.utf8)) == nil, "\(file.url.lastPathComponent)")
                }

                // The service stops publishing the key: the server ends the session at its next refresh.
                published.replace(with: [ClientKey()])
                _ = try await world.sandbox.control(
                    HTTPRequest(
                        method: .post,
                        url: world.sandbox.authorizationServer.appendingPathComponent("_sandbox/client-cache/reset")
                    )
                )
                try await world.sandbox.expireAccessTokens(then: "{}")
                let ended = try await world.atoauth("whoami")
                #expect(ended.status == 3, "\(ended.stderr)")
                #expect(ended.stderr.contains(key.keyID), "\(ended.stderr)")
                #expect(ended.stderr.contains("atoauth accounts add"), "\(ended.stderr)")
            }
        }
    }

    @Test("Standard input that ends before the redirect's address is pasted is a usage error, not a failed check")
    func standardInputEnded() async throws {
        try await Self.withOneKeyClient { world, clientID, key, keyFile in
            try key.privateJWK.write(to: keyFile)
            let result = try await world.atoauth(
                ["accounts", "add", "alice.test", "--client-id", clientID.absoluteString, "--client-key"]
                    + [keyFile.path, "--no-browser"],
                stdin: Data()
            )
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("Standard input ended before the redirect's address was pasted"))
            #expect(try await world.atoauth("accounts", "list").stdout.isEmpty)
        }
    }

    @Test("remove-key is refused while a session uses the key, naming the count; --force ends it: sign in again")
    func guardedRemoval() async throws {
        try await Self.withOneKeyClient { world, clientID, key, keyFile in
            #expect(try await Self.operatorSignIn(world, clientID, key, keyFile).result.status == 0)

            // A kid is a base64url thumbprint, taken as the kid even when it begins with "-" (one in 64 do).
            let kid = [key.keyID]
            let refused = try await world.atoauth(["client", "remove-key"] + kid)
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(refused.stderr.contains("1 session uses the client key \(key.keyID)"), "\(refused.stderr)")
            #expect(try await world.atoauth("whoami").status == 0, "nothing was changed")

            let forced = try await world.atoauth(["client", "remove-key", "--force"] + kid)
            #expect(forced.status == 0, "\(forced.stderr)")
            #expect((forced.stdout + forced.stderr).contains("alice.test"), "\(forced.stdout)")
            // The next command says why the session ended, naming the key, and how to sign in as the same client;
            // so does any later use of the account, until it is signed in again or removed.
            let next = try await world.atoauth("whoami")
            let named = try await world.atoauth("whoami", "--account", "alice.test")
            for after in [next, named] {
                #expect(after.status == 3, "\(after.stderr)")
                #expect(after.stderr.contains("client key \(key.keyID)"), "\(after.stderr)")
                #expect(after.stderr.contains("atoauth accounts add alice.test"), "\(after.stderr)")
                #expect(after.stderr.contains("--client-id") && after.stderr.contains("--client-key"))
            }
            #expect(try await world.atoauth("accounts", "remove", "alice.test").status == 0)
            let forgotten = try await world.atoauth("whoami", "--account", "alice.test")
            #expect(forgotten.status == 3, "\(forgotten.stderr)")
            #expect(!forgotten.stderr.contains(key.keyID), "\(forgotten.stderr)")
        }
    }

    @Test("A --client-key file beside the store's current key signs its own session; the key states stay as they were")
    func fileKeyBesideCurrentKey() async throws {
        let first = ClientKey()
        let second = ClientKey()
        try await Self.withClientDocument(publishing: PublishedKeys([first, second])) { clientID in
            try await CLIWorld.with { world in
                let firstFile = world.directory.appendingPathComponent("first.jwk")
                #expect(try await Self.operatorSignIn(world, clientID, first, firstFile).result.status == 0)
                let secondFile = world.directory.appendingPathComponent("second.jwk")
                let (_, _, result) = try await Self.operatorSignIn(world, clientID, second, secondFile)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stderr.contains("as retiring"), "\(result.stderr)")

                let status = try await world.atoauth("accounts", "status", "--json")
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
                )
                #expect(object["clientKeyID"] as? String == second.keyID)
                // The first key stays current: new sign-ins never switch to a key without its publish wait.
                let keys = try await world.atoauth("client", "keys", "--json")
                let listed = try #require(
                    try JSONSerialization.jsonObject(with: Data(keys.stdout.utf8)) as? [[String: Any]]
                )
                #expect(listed.map { $0["kid"] as? String } == [first.keyID, second.keyID])
                #expect(listed.map { $0["state"] as? String } == ["current", "retiring"])
                #expect(listed.map { $0["sessions"] as? Int } == [0, 1])
                #expect(try await world.atoauth("whoami").status == 0, "the session calls as the account")
            }
        }
    }

    @Test(
        "On a terminal the pasted address is read as the loopback sign-in reads it: not echoed, counted, a waiting line"
    )
    func terminalPaste() async throws {
        try await Self.withOneKeyClient { world, clientID, key, keyFile in
            try key.privateJWK.write(to: keyFile)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
            let terminal = try TerminalProcess(
                [
                    "accounts", "add", "alice.test", "--client-id", clientID.absoluteString, "--client-key",
                    keyFile.path, "--no-browser", "--timeout", "600",
                ],
                environment: world.environment
            )
            let screen = try await terminal.waitFor("left)…")
            #expect(screen.contains("paste it here (it is not shown) and press Enter"), "\(screen)")
            #expect(screen.contains("\r\u{1B}[KWaiting for the redirect until "), "\(screen)")
            #expect(try !terminal.echoes(), "echo is off while the address is read")
            let redirect = try await world.redirectAddress(approving: try CLIWorld.authorizationURL(in: screen))
            terminal.type("not an address\n")
            try await terminal.waitFor("That is not a web address.")
            terminal.type(redirect.absoluteString + "\n")
            let (status, output) = try await terminal.finish()
            #expect(status == 0, "\(output)")
            #expect(output.contains("Got \(redirect.absoluteString.count) characters; checking…"), "\(output)")
            #expect(!output.contains(try CLIWorld.code(in: redirect)), "the pasted address is not echoed")
            #expect(output.contains("\r\u{1B}[KAdded the client key"), "the line is cleared before the result")
            #expect(output.contains("Signed in as alice.test ("), "\(output)")
            #expect(try terminal.echoes(), "echo is back after the sign-in")
        }
    }

    @Test("--client-key without a confidential --client-id, or with --callback-port, is refused; a -kid is no option")
    func usage() async throws {
        try await ScratchHome.with { scratch in
            let missing = try await scratch.atoauth(["accounts", "add", "alice.test", "--client-key", "kid"])
            #expect(missing.status == 2, "\(missing.stderr)")
            #expect(missing.stderr.contains("--client-id"))
            let port = try await scratch.atoauth([
                "accounts", "add", "alice.test", "--client-key", "kid", "--callback-port", "8080",
            ])
            #expect(port.status == 2)
            // Text that names no file must be a kid atoauth takes: refused before anything is sent.
            let badKid = try await scratch.atoauth([
                "accounts", "add", "alice.test", "--client-id", "https://127.0.0.1:9/client-metadata.json",
                "--client-key", "two words",
            ])
            #expect(badKid.status == 2, "\(badKid.stderr)")
            #expect(badKid.stderr.contains("names no file, and a kid is 1 to 128 characters"), "\(badKid.stderr)")
            // A kid is base64url and may begin with "-": it is a value, never an option.
            let dashed = try await scratch.atoauth(["accounts", "add", "alice.test", "--client-key", "-dashed"])
            #expect(dashed.status == 2)
            #expect(
                dashed.stderr.contains("--client-id") && !dashed.stderr.contains("Unknown option"),
                "\(dashed.stderr)"
            )
            let removal = try await scratch.atoauth(["client", "remove-key", "-dashed"])
            #expect(removal.status == 2)
            #expect(
                removal.stderr.contains("-dashed") && !removal.stderr.contains("Unknown option"),
                "\(removal.stderr)"
            )
            // A thumbprint whose letters spell options (-h, -v) is the kid still, before or after --force.
            let thumbprint = "-hv" + String(repeating: "A", count: 40)
            for arguments in [[thumbprint], [thumbprint, "--force"], ["--force", thumbprint]] {
                let spelled = try await scratch.atoauth(["client", "remove-key"] + arguments)
                #expect(spelled.status == 2, "\(arguments): \(spelled.stdout)")
                #expect(spelled.stderr.contains(thumbprint) && spelled.stdout.isEmpty, "\(spelled.stderr)")
            }
        }
    }
}
