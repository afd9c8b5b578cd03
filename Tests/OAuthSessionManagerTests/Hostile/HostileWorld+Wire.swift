import ATOAuthTesting
import Foundation

extension HostileWorld {
    /// A JSON answer for a JSON-compatible object, or a 500 if it is not one.
    static func json(_ object: [String: Any], status: Int = 200) -> ScriptedResponse {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return .text("the script is not JSON", status: 500)
        }
        return ScriptedResponse(status: status, headers: [("Content-Type", "application/json")], body: data)
    }

    /// A placeholder string value that ``json(_:replacing:with:)`` swaps for raw JSON text.
    static let rawExpiresIn = "raw-expires-in-placeholder"

    /// `object` as JSON with the string value `placeholder` replaced by the raw JSON text `raw`, such as `1e308`.
    static func json(_ object: [String: Any], replacing placeholder: String, with raw: String) -> ScriptedResponse {
        var response = json(object)
        let text = String(decoding: response.body, as: UTF8.self).replacingOccurrences(
            of: "\"\(placeholder)\"",
            with: raw
        )
        response.body = Data(text.utf8)
        return response
    }

    /// An OAuth error answer (RFC 6749 §5.2) carrying the server's DPoP nonce, as the reference server sends.
    static func oauthError(_ code: String, _ description: String) -> ScriptedResponse {
        withNonce(json(["error": code, "error_description": description], status: 400))
    }

    /// The answer with the world's `DPoP-Nonce` header added (RFC 9449 §8).
    static func withNonce(_ response: ScriptedResponse) -> ScriptedResponse {
        var response = response
        response.headers.append(("DPoP-Nonce", nonce))
        return response
    }

    /// The DID document as JSON.
    static func object(_ document: HostileScript.Document) -> [String: Any] {
        [
            "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"],
            "id": document.id,
            "alsoKnownAs": document.alsoKnownAs,
            "verificationMethod": [] as [Any],
            "service": [
                ["id": "#atproto_pds", "type": "AtprotoPersonalDataServer", "serviceEndpoint": document.pds]
            ],
        ]
    }

    /// The authorization server metadata as JSON, with every capability AT Protocol OAuth requires.
    static func object(_ metadata: HostileScript.AuthorizationServer) -> [String: Any] {
        var object: [String: Any] = [
            "authorization_endpoint": metadata.authorizationEndpoint,
            "token_endpoint": metadata.tokenEndpoint,
            "pushed_authorization_request_endpoint": metadata.pushedAuthorizationRequestEndpoint,
            "revocation_endpoint": metadata.revocationEndpoint,
            "require_pushed_authorization_requests": true,
            "client_id_metadata_document_supported": true,
            "authorization_response_iss_parameter_supported": true,
            "code_challenge_methods_supported": ["S256"],
            "dpop_signing_alg_values_supported": ["ES256"],
            "token_endpoint_auth_methods_supported": ["none", "private_key_jwt"],
            "scopes_supported": ["atproto", "transition:generic"],
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
        ]
        object["issuer"] = metadata.issuer
        return object
    }

    /// The `nonce` claim of the request's DPoP proof, if it has a readable one.
    static func proofNonce(_ request: RecordedRequest) -> String? {
        guard let proof = request.header("DPoP") else { return nil }
        let parts = proof.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            return nil
        }
        return claims["nonce"] as? String
    }

    /// Decodes a query or form body; `+` is a space; a repeated name keeps its first value.
    static func form(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decoded = parts.map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            if fields[decoded[0]] == nil { fields[decoded[0]] = decoded.count > 1 ? decoded[1] : "" }
        }
        return fields
    }

    /// Encodes a query, percent-encoding everything outside the unreserved characters.
    static func encode(_ pairs: [(String, String)]) -> String {
        let unreserved = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"
        )
        return pairs.map { name, value in
            let encoded = value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
            return "\(name)=\(encoded)"
        }
        .joined(separator: "&")
    }
}
