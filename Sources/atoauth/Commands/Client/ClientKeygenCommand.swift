import AccountManager
import ArgumentParser
import Foundation
import OAuthMetadata
import OAuthSessionManager
import WireFormat

/// `atoauth client keygen`.
struct ClientKeygenCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Make a new ES256 client key: keep it in the store (or a new 0600 file) and print its public JWKS.",
        discussion: """
            A confidential client signs each token request with an ES256 key (RFC 7523); the authorization server \
            checks the signature against the keys the client metadata document publishes, in jwks or at \
            jwks_uri (atproto.com/specs/oauth, Client Authentication). The key's kid is its RFC 7638 thumbprint.

            Without --out, the private key is sealed in the store like every other secret. The first key of the \
            store signs at once; a later key is next: publish it now, and it starts signing new sign-ins once \
            --publish-wait seconds have passed (default \(defaultPublishWait): the reference server caches client \
            metadata for 10 minutes), the key it replaces then retiring. With --out, the private JWK is written \
            to a new file, mode 0600, which is never overwritten; the key is not added to the store.

            stdout gets the public key set, {"keys": [...]}, to publish; the private key is never printed. With \
            --json, one object: {"kid", "jwks", "state", "usableAt", "file"} (state and usableAt null with --out, \
            file null without it). stderr says what to do next.

            Examples:
              atoauth client keygen
              atoauth client keygen --out client-key.jwk
              atoauth client keygen --publish-wait 3600 --json
            """
    )

    /// The key is kept in the store, unless `--out` names a file.
    static let globalOptions = GlobalOption.store

    /// The longest `--publish-wait`, in seconds: a week.
    static let maximumPublishWait = 604_800
    /// The `--publish-wait` taken when none is given: the library's.
    static let defaultPublishWait = Int(ClientKeySet.defaultPublishWait)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write the private key (a JWK) to this new file, mode 0600, instead of the store; never overwritten.",
            valueName: "file"
        ),
        completion: .file()
    )
    var out: String?

    @Option(
        name: .long,
        parsing: .unconditional,
        help: ArgumentHelp(
            "In the store: how long a new key is published before it signs, in seconds "
                + "(default \(defaultPublishWait)).",
            valueName: "seconds"
        ),
        transform: WholeNumber.parser("--publish-wait", within: 0...maximumPublishWait, unit: "seconds")
    )
    var publishWait: Int?

    @OptionGroup var global: GlobalOptions<Self>

    func validate() throws {
        try ValidationError.refuseFirst(of: [
            (
                out != nil && publishWait != nil,
                "--publish-wait is for a key kept in the store; a key written with --out signs wherever it is "
                    + "deployed, once its JWKS is published."
            ),
            (
                out != nil && (global.home != nil || global.store != nil),
                "--out writes the key to a file, not to a store: leave --home and --store out."
            ),
        ])
    }

    func run() async throws {
        let key = ClientKey()
        let record: ClientKeyRecord?
        if let out {
            try NewSecretFile.create(out, holding: key.privateJWK)
            record = nil
        } else {
            let wait = publishWait.map(TimeInterval.init) ?? ClientKeySet.defaultPublishWait
            record = try await CLIContext.run(global) { context in
                try await context.accounts.addClientKey(key, publishedFor: wait)
            }
        }
        try Output.result(
            KeygenJSON(key: key, record: record, file: out),
            json: global.json,
            text: String(decoding: key.publicJWKS, as: UTF8.self)
        )
        Output.message(Self.nextSteps(key: key, record: record, file: out))
    }

    /// What to do with the new key: where to publish its JWKS, and when it signs.
    static func nextSteps(key: ClientKey, record: ClientKeyRecord?, file: String?) -> String {
        let publish =
            "Publish its public key set (printed above) in the client metadata document's jwks, or at its jwks_uri"
        guard let record else {
            return "Wrote the private key \(key.keyID) to \(file ?? "the file") (mode 0600): keep it secret, never "
                + "commit it, and give it only to the service that signs the client's token requests. \(publish)."
        }
        switch record.state {
        case .current:
            return "Added the client key \(key.keyID) to the store; it signs new sign-ins now, as the store had no "
                + "other key. \(publish) (`atoauth client metadata` writes the document with it) before the next "
                + "sign-in."
        case .next, .retiring:
            let usable = ISO8601DateFormatter().string(from: record.usableAt)
            let when = SessionStatus.relative(record.usableAt, now: Date())
            return "Added the client key \(key.keyID) to the store as the next key. \(publish) now, beside the keys "
                + "already published (`atoauth client metadata` writes them all): it starts signing new sign-ins "
                + "at \(usable) (\(when)), once authorization servers have fetched the new set; until then the "
                + "current key signs. `atoauth client keys` shows the keys."
        }
    }
}

/// The JSON answer of `client keygen`: the new key's `kid`, its public key set, and where it is kept.
struct KeygenJSON: Encodable {
    var kid: String
    var jwks: [String: [[String: String]]]
    /// `next` or `current` in the store; `null` for a key written to a file.
    @NullWhenAbsent var state: String? = nil
    /// When the key starts signing new sign-ins (ISO 8601); `null` for a key written to a file.
    @NullWhenAbsent var usableAt: String? = nil
    /// The file the private key was written to; `null` for a key kept in the store.
    @NullWhenAbsent var file: String? = nil

    init(key: ClientKey, record: ClientKeyRecord?, file: String?) {
        kid = key.keyID
        jwks = ["keys": [key.publicJWK]]
        state = record?.state.rawValue
        usableAt = record.map { ISO8601DateFormatter().string(from: $0.usableAt) }
        self.file = file
    }
}
