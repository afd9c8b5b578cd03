import Foundation
import HTTPTransport

/// The `repo` a request names, for routing: the query parameter, else a top-level string member of a JSON body
/// (the `at-identifier` of `com.atproto.repo.*` methods, atproto.com/specs/lexicon).
enum RepoParameter {
    /// The largest body looked into.
    static let maximumBodySize = 256 * 1024

    static func find(_ parameters: [(String, String)], _ body: Data?, _ contentType: String?) -> String? {
        if let repo = parameters.first(where: { $0.0 == "repo" })?.1 { return repo }
        guard let body, body.count <= maximumBodySize, ContentTypeField.isJSON(contentType),
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        else { return nil }
        return object["repo"] as? String
    }
}
