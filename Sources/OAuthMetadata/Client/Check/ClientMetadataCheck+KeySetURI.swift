package import Foundation
package import HTTPTransport

extension ClientMetadataCheck {
    /// The problems of the JWK Set a confidential client's document publishes at its `jwks_uri`, fetched as an
    /// authorization server fetches it, and checked as an inline `jwks` is: a key set that cannot be fetched, or
    /// that publishes a private key, fails every sign-in (atproto.com/specs/oauth, Client Authentication).
    ///
    /// Nothing is fetched, and nothing is reported, for a document that is not a confidential client's with a
    /// `jwks_uri` string, or whose key members already have problems (`problems`).
    package static func keySetProblems(
        ofDocument json: Data,
        besides problems: [ClientMetadataProblem],
        fetcher: SafeFetcher
    ) async -> [ClientMetadataProblem] {
        guard !problems.contains(where: { $0.field == "jwks" || $0.field == "jwks_uri" }),
            case .object(let members)? = try? JSONDecoder().decode(DocumentValue.self, from: json),
            members["token_endpoint_auth_method"]?.string == "private_key_jwt",
            let text = members["jwks_uri"]?.string, let url = URL(string: text)
        else { return [] }
        let body: Data
        do {
            body = try await fetcher.get(url, expecting: .metadata).body
        } catch {
            let reason = (error as? FetchError)?.reason ?? "\(error)"
            return [
                ClientMetadataProblem(
                    field: "jwks_uri",
                    problem: "it cannot be fetched: \(reason)",
                    rule: CheckRule.keys
                )
            ]
        }
        guard let keySet = try? JSONDecoder().decode(DocumentValue.self, from: body) else {
            return [ClientMetadataProblem(field: "jwks_uri", problem: "it does not serve JSON", rule: CheckRule.keySet)]
        }
        var check = DocumentCheck(members: members, allowHTTPLoopback: false)
        check.checkKeySet(keySet, confidential: true, field: "jwks_uri")
        return check.problems
    }
}
