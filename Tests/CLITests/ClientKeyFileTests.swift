import ATOAuthTesting
import Foundation
import OAuthMetadata
import OAuthSessionManager
import Testing

/// The files an operator names (`client check FILE`, `--client-key FILE`) are read as the store reads its own: a FIFO
/// never blocks; a key's `kid` is a bounded printable token; a loose key file is warned about; and a key joins the
/// store's set only when its sign-in succeeds.
@Suite("Files an operator names")
struct ClientKeyFileTests {
    @Test("client check on a FIFO exits 2 at once, saying it is not a regular file")
    func fifo() async throws {
        try await ScratchHome.with { scratch in
            let fifo = scratch.directory.appendingPathComponent("document.json").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let result = try await CLIProcess.run(
                ["client", "check", fifo],
                environment: scratch.environment,
                timeout: .seconds(20)
            )
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("it is a FIFO, not a regular file"), "\(result.stderr)")
        }
    }

    @Test("a kid with a line break, a space or 129 characters is refused, naming the rule; nothing is stored")
    func keyID() async throws {
        try await ScratchHome.with { scratch in
            let closed = try ClosedPort()
            for kid in ["bad\nkid", "two words", "tab\tkid", String(repeating: "k", count: 129)] {
                let file = try Self.keyFile(in: scratch, kid: kid)
                let result = try await scratch.atoauth(Self.signIn(file, port: closed.port))
                #expect(result.status == 2, "\(result.stderr)")
                #expect(result.stderr.contains("must be 1 to 128 characters of A–Z"), "\(result.stderr)")
            }
            let accepted = try Self.keyFile(in: scratch, kid: "2011-04-29:key_1.v~2+x=")
            let fetched = try await scratch.atoauth(Self.signIn(accepted, port: closed.port))
            #expect(!fetched.stderr.contains("“kid”"), "a kid within the rule goes on: \(fetched.stderr)")
            #expect(try await Self.storedKeys(scratch).isEmpty)
        }
    }

    @Test("a client key file open to other users gets a warning naming its mode; a 0600 file none")
    func looseMode() async throws {
        try await ScratchHome.with { scratch in
            let closed = try ClosedPort()
            let file = try Self.keyFile(in: scratch, kid: "loose")
            #expect(chmod(file.path, 0o644) == 0)
            let loose = try await scratch.atoauth(Self.signIn(file, port: closed.port))
            #expect(loose.stderr.contains("Warning: the client key file"), "\(loose.stderr)")
            #expect(loose.stderr.contains("mode 0644"), "\(loose.stderr)")
            #expect(chmod(file.path, 0o600) == 0)
            let tight = try await scratch.atoauth(Self.signIn(file, port: closed.port))
            #expect(!tight.stderr.contains("Warning: the client key file"), "\(tight.stderr)")
        }
    }

    @Test("a sign-in refused with a --client-key file (the document does not publish it) leaves the key set empty")
    func refusedSignInStoresNoKey() async throws {
        try await ConfidentialSignInTests.withClientDocument(publishing: PublishedKeys([ClientKey()])) { clientID in
            try await ScratchHome.with { scratch in
                let file = scratch.directory.appendingPathComponent("unpublished.jwk")
                try ClientKey().privateJWK.write(to: file)
                #expect(chmod(file.path, 0o600) == 0)
                let result = try await scratch.atoauth([
                    "accounts", "add", "alice.test", "--client-id", clientID.absoluteString, "--client-key", file.path,
                    "--allow-http-loopback", "--no-browser",
                ])
                #expect(result.status == 2, "\(result.stderr)")
                #expect(result.stderr.contains("not among the keys the document publishes"), "\(result.stderr)")
                #expect(try await Self.storedKeys(scratch).isEmpty, "the refused key is not in the store")
            }
        }
    }

    /// A private JWK file (0600) of a new key whose `kid` is `kid`.
    private static func keyFile(in scratch: ScratchHome, kid: String) throws -> URL {
        var jwk = try #require(try JSONSerialization.jsonObject(with: ClientKey().privateJWK) as? [String: Any])
        jwk["kid"] = kid
        let file = scratch.directory.appendingPathComponent("key-\(UUID().uuidString).jwk")
        try JSONSerialization.data(withJSONObject: jwk).write(to: file)
        #expect(chmod(file.path, 0o600) == 0)
        return file
    }

    /// `accounts add` as a confidential client with `file`, whose document is at a port that refuses connections.
    private static func signIn(_ file: URL, port: Int) -> [String] {
        [
            "accounts", "add", "alice.test", "--client-id", "http://127.0.0.1:\(port)/client-metadata.json",
            "--client-key", file.path, "--allow-http-loopback", "--no-browser",
        ]
    }

    /// The `kid`s of the store's client key set.
    private static func storedKeys(_ scratch: ScratchHome) async throws -> [String] {
        let listed = try await scratch.atoauth(["client", "keys", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        return keys.compactMap { $0["kid"] as? String }
    }
}
