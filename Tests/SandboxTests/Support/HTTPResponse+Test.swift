import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Testing

extension HTTPResponse {
    /// The body as a JSON object.
    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    /// The `error` member of a JSON body, if any.
    var errorCode: String? {
        (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? String
    }

    /// The parameters of the `WWW-Authenticate: DPoP` challenge, if any.
    var dpopChallenge: [String: String]? {
        WWWAuthenticateChallenge.parse(headers.values(for: "WWW-Authenticate")).first { $0.hasScheme("DPoP") }?
            .parameters
    }

    /// The query parameters of the `Location` header.
    func locationQuery() throws -> [String: String] {
        let location = try #require(headers["Location"])
        let items = try #require(URLComponents(string: location)?.queryItems)
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}
