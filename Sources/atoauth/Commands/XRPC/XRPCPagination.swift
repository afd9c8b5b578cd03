import ATClient
import ATProtoSyntax
import Foundation
import WireFormat

/// `xrpc --paginate`: follows the `cursor` of a paginated query (atproto.com/specs/xrpc, Cursors and Pagination),
/// printing each page, or all of them merged into one object at the end.
///
/// Paging ends at a page with no cursor or an empty one. It stops early, and says so once what was read is printed,
/// at an error answer, a page that is not a JSON object, a cursor the server sent before (it would loop) or the
/// page limit.
///
/// Merged, every top-level array (the list the method pages through, such as `records` or `follows`) is the
/// concatenation of that array in every page, in order; any other member keeps its value from the first page that
/// has it. The `cursor` is dropped, unless paging stopped at the page limit: then it is the one to resume from.
struct XRPCPagination {
    let method: NSID
    let maximumPages: Int

    /// Fetches from the `cursor` among `parameters`, when the user gave one.
    func run(
        parameters: [(String, String)],
        merged: Bool,
        fetch: ([(String, String)]) async throws -> XRPCResponse
    ) async throws {
        let otherParameters = parameters.filter { $0.0 != "cursor" }
        var cursor = parameters.last { $0.0 == "cursor" }?.1
        var seen = Set(cursor.map { [$0] } ?? [])
        var pageCount = 0
        var document: [String: Any] = [:]
        defer {
            if merged, pageCount > 0 { Output.line(XRPCResponse.jsonText(of: document, pretty: false) ?? "{}") }
        }
        while true {
            let response = try await fetch(otherParameters + (cursor.map { [("cursor", $0)] } ?? []))
            guard let page = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] else {
                throw Self.stop(
                    "Page \(pageCount + 1) of \(method) is not a JSON object, so it has no cursor to follow; stopped "
                        + "after \(pageCount) pages."
                )
            }
            pageCount += 1
            if merged {
                Self.merge(page, into: &document)
            } else {
                Output.line(XRPCResponse.jsonText(of: page, pretty: true) ?? "{}")
            }
            guard let next = page["cursor"] as? String, !next.isEmpty else { return }
            let shown = TerminalText.sanitized(next, limit: 200)
            if seen.contains(next) {
                throw Self.stop(
                    "\(method) sent the cursor “\(shown)” a second time; stopped after \(pageCount) pages rather than "
                        + "loop. The pages read are printed."
                )
            }
            if pageCount >= maximumPages {
                document["cursor"] = next
                throw Self.stop(
                    "Stopped after \(pageCount) pages (--max-pages); \(method) has more. Continue with cursor=\(shown), "
                        + "or raise --max-pages."
                )
            }
            seen.insert(next)
            cursor = next
        }
    }

    private static func merge(_ page: [String: Any], into document: inout [String: Any]) {
        for (key, value) in page where key != "cursor" {
            if let items = value as? [Any], let earlier = document[key] as? [Any] {
                document[key] = earlier + items
            } else if document[key] == nil {
                document[key] = value
            }
        }
    }

    private static func stop(_ message: String) -> CLIFailure {
        CLIFailure(status: .failed, message: message)
    }
}
