package import Foundation
import WireFormat

/// Checks a client metadata document, public or confidential, against the AT Protocol profile (atproto.com/specs/oauth,
/// Clients and Client Authentication) and the rules the reference authorization server adds, and returns every
/// problem rather than the first.
///
/// Unlike ``ClientMetadata/init(json:expectedClientID:allowHTTPLoopback:)``, which stops at the first broken rule and
/// accepts only what atoauth itself signs in as, this describes any client's document, such as a browser app's
/// (`web`, `none`), so that a developer fixes everything in one pass. Whatever ``ClientMetadata`` accepts has no
/// problem here.
package enum ClientMetadataCheck {
    /// The largest document accepted, in bytes: a document is fetched at every sign-in and is a few KiB.
    package static let maximumSize = 64 * 1024

    /// Every problem of the document `json`, in the order of its members; empty when it is valid.
    ///
    /// - Parameters:
    ///   - json: the document's bytes.
    ///   - url: the URL it was fetched from, which its `client_id` must equal; `nil` for a file, whose `client_id`
    ///     is checked on its own.
    ///   - allowHTTPLoopback: development only: accept an `http://127.0.0.1` or `http://[::1]` `client_id`, and
    ///     for such a client http loopback redirect, key set and home page URLs.
    /// - Returns: the problems, each with the member, what is wrong and the rule.
    package static func problems(
        in json: Data,
        fetchedFrom url: String?,
        allowHTTPLoopback: Bool
    ) -> [ClientMetadataProblem] {
        problems(in: json, fetchedFrom: url, allowHTTPLoopback: allowHTTPLoopback, checkingSize: true)
    }

    /// The problems of a decoded document, as encoded again: the members ``ClientMetadata`` keeps, not the size.
    static func problems(in metadata: ClientMetadata, allowHTTPLoopback: Bool) -> [ClientMetadataProblem] {
        guard let json = try? JSONEncoder().encode(metadata) else {
            return [ClientMetadataProblem(field: "document", problem: "it cannot be encoded", rule: CheckRule.document)]
        }
        return problems(in: json, fetchedFrom: nil, allowHTTPLoopback: allowHTTPLoopback, checkingSize: false)
    }

    private static func problems(
        in json: Data,
        fetchedFrom url: String?,
        allowHTTPLoopback: Bool,
        checkingSize: Bool
    ) -> [ClientMetadataProblem] {
        var problems: [ClientMetadataProblem] = []
        if checkingSize, json.count > maximumSize {
            problems.append(
                ClientMetadataProblem(
                    field: "document",
                    problem: "it is \(json.count) bytes; a client metadata document is at most 64 KiB",
                    rule: CheckRule.size
                )
            )
        }
        if let repeated = JSONRepeatedName.first(in: json) {
            problems.append(
                ClientMetadataProblem(
                    field: TerminalText.sanitized(repeated, limit: 100),
                    problem: "it is given twice in one object; servers read the last value, other readers the first, "
                        + "so give it once",
                    rule: CheckRule.repeatedName
                )
            )
        }
        guard case .object(let members)? = try? JSONDecoder().decode(DocumentValue.self, from: json) else {
            problems.append(
                ClientMetadataProblem(field: "document", problem: "it is not a JSON object", rule: CheckRule.document)
            )
            return problems
        }
        var check = DocumentCheck(members: members, allowHTTPLoopback: allowHTTPLoopback)
        check.run(fetchedFrom: url)
        return problems + check.problems
    }
}
