import Foundation
import Keystore
import OAuthMetadata
import OAuthSessionManager
import WireFormat

/// The client metadata document `client metadata` writes (atproto.com/specs/oauth, Clients).
struct ClientMetadataDocument {
    /// Where the client's public keys are published.
    enum Keys {
        /// No keys: a public client.
        case absent
        /// Inline, in `jwks`: each a JSON object.
        case inline([Any])
        /// At `jwks_uri`.
        case location(String)
    }

    var clientID: String
    /// A native app's public client, rather than a confidential web client.
    var native: Bool
    var scope: String
    var redirectURIs: [String] = []
    var name: String?
    var clientURI: String?
    var keys = Keys.absent

    init(clientID: String, native: Bool, scope: String) {
        self.clientID = clientID
        self.native = native
        self.scope = scope
    }

    /// The document as a JSON object.
    var object: [String: Any] {
        var object: [String: Any] = [
            "client_id": clientID,
            "application_type": native ? "native" : "web",
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "scope": scope,
            "redirect_uris": redirectURIs,
            "token_endpoint_auth_method": native ? "none" : "private_key_jwt",
            "dpop_bound_access_tokens": true,
        ]
        if let name { object["client_name"] = name }
        if let clientURI { object["client_uri"] = clientURI }
        if !native { object["token_endpoint_auth_signing_alg"] = "ES256" }
        switch keys {
        case .absent: break
        case .inline(let keys): object["jwks"] = ["keys": keys]
        case .location(let url): object["jwks_uri"] = url
        }
        return object
    }

    /// The `kid` of each key published inline.
    var keyIDs: [String] {
        guard case .inline(let keys) = keys else { return [] }
        return keys.compactMap { ($0 as? [String: Any])?["kid"] as? String }
    }

    /// The document, pretty-printed with sorted keys, once ``ClientMetadataCheck`` finds no problem in it.
    ///
    /// - Throws: `CLIFailure` (failed) listing the problems: on stderr one per line first, or in its message with
    ///   `json`.
    func checked(allowHTTPLoopback: Bool, json: Bool) throws -> Data {
        let data = try JSONSerialization.data(
            withJSONObject: object,
            options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        )
        let problems = ClientMetadataCheck.problems(
            in: data,
            fetchedFrom: clientID,
            allowHTTPLoopback: allowHTTPLoopback
        )
        guard problems.isEmpty else {
            let count = problems.count == 1 ? "a problem" : "\(problems.count) problems"
            if json {
                throw CLIFailure(
                    status: .failed,
                    message: "The document has \(count), so nothing was written: "
                        + problems.map(\.description).joined(separator: "; ")
                )
            }
            for problem in problems {
                Output.message(problem.description)
            }
            throw CLIFailure(
                status: .failed,
                message: "The document has \(count), listed above; nothing was written."
            )
        }
        return data
    }

    /// The `--json` answer: `{"clientID", "kind", "file", "keys", "document"}` on one line, keys sorted.
    func summaryJSON(file: String?) throws -> String {
        let answer: [String: Any] = [
            "clientID": clientID,
            "kind": native ? "public" : "confidential",
            "file": file.map { $0 as Any } ?? NSNull(),
            "keys": keyIDs,
            "document": object,
        ]
        let data = try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// The largest key set file read.
    static let maximumKeySetSize = 1 << 20

    /// The public keys of a key set file, `{"keys": [...]}` (or one key); a private key is refused, never quoted.
    static func keySet(fromFile path: String) throws -> [Any] {
        let shown = TerminalText.sanitized(path, limit: 200)
        let data = try UserFile.read(path, limit: maximumKeySetSize, what: "the key set") {
            "The key set \($0) is larger than 1 MiB."
        }
        .data
        let object = try? JSONSerialization.jsonObject(with: data)
        let keys: [Any]
        if let set = (object as? [String: Any])?["keys"] as? [Any] {
            keys = set
        } else if let key = object as? [String: Any], key["kty"] != nil {
            keys = [key]
        } else {
            throw CLIFailure(
                status: .usage,
                message: "\(shown) is not a JSON Web Key Set: give {\"keys\": [...]}, as `atoauth client keygen` "
                    + "prints it."
            )
        }
        let holdsPrivateKey = keys.contains { key in
            (key as? [String: Any]).map { key in ClientKey.privateMembers.contains { key[$0] != nil } } ?? false
        }
        guard !holdsPrivateKey else {
            throw CLIFailure(
                status: .usage,
                message: "\(shown) holds a private key, which must never be published: give the public key set "
                    + "(`atoauth client keygen` prints it on stdout). Nothing was written."
            )
        }
        return keys
    }
}
