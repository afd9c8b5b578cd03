import Foundation
import WireFormat

/// Follows the `cursor` of a paginated query (atproto.com/specs/xrpc, Cursors and Pagination): the next request,
/// and when to stop.
///
/// It stops when a page has no cursor or an empty one, and refuses to go on when the server sends a cursor it sent
/// before (it would loop) or the page limit is reached.
struct XRPCPager {
    /// Why paging stopped before the server said it was done.
    enum EarlyStop: Equatable {
        /// The server sent this cursor a second time.
        case repeatedCursor(String)
        /// The page limit was reached; this cursor continues.
        case pageLimit(String)
    }

    private let parameters: [(String, String)]
    private let maximumPages: Int
    private var cursor: String?
    private var seen: Set<String> = []
    private var finished = false
    /// The pages read so far.
    private(set) var pageCount = 0
    /// Why paging stopped early, once it did.
    private(set) var earlyStop: EarlyStop?

    /// Starts at the `cursor` among `parameters`, when the user gave one.
    init(parameters: [(String, String)], maximumPages: Int) {
        self.parameters = parameters.filter { $0.0 != "cursor" }
        self.maximumPages = maximumPages
        cursor = parameters.last { $0.0 == "cursor" }?.1
        if let cursor { seen.insert(cursor) }
    }

    /// The query parameters of the next page, or `nil` when done.
    var nextParameters: [(String, String)]? {
        guard !finished else { return nil }
        return parameters + (cursor.map { [("cursor", $0)] } ?? [])
    }

    /// Takes a page's JSON object and decides what comes next.
    mutating func accept(_ page: [String: Any]) {
        pageCount += 1
        guard let next = page["cursor"] as? String, !next.isEmpty else {
            finished = true
            return
        }
        if seen.contains(next) {
            earlyStop = .repeatedCursor(next)
            finished = true
        } else if pageCount >= maximumPages {
            earlyStop = .pageLimit(next)
            finished = true
        } else {
            seen.insert(next)
            cursor = next
        }
    }

    /// The failure to report once paging stopped early: what was printed is all there is.
    func earlyStopFailure(method: String) -> CLIFailure? {
        guard let earlyStop else { return nil }
        switch earlyStop {
        case .repeatedCursor(let cursor):
            return CLIFailure(
                status: .failed,
                message: "\(method) sent the cursor “\(Self.shown(cursor))” a second time; stopped after "
                    + "\(pageCount) pages rather than loop. The pages read are printed."
            )
        case .pageLimit(let cursor):
            return CLIFailure(
                status: .failed,
                message: "Stopped after \(pageCount) pages (--max-pages); \(method) has more. Continue with "
                    + "cursor=\(Self.shown(cursor)), or raise --max-pages."
            )
        }
    }

    /// The page limit's cursor, to resume from; `nil` otherwise.
    var resumeCursor: String? {
        if case .pageLimit(let cursor) = earlyStop { return cursor }
        return nil
    }

    private static func shown(_ cursor: String) -> String {
        TerminalText.sanitized(cursor, limit: 200)
    }
}

/// The pages of a paginated query merged into one JSON object, for `xrpc --paginate --json`.
///
/// Every top-level array (the list the method pages through, such as `records` or `follows`) is the
/// concatenation of that array in every page, in order; any other field keeps its value from the first page that
/// has it. The `cursor` is dropped, unless paging stopped at the page limit: then it is the one to resume from.
struct MergedPages {
    private var document: [String: Any] = [:]

    mutating func add(_ page: [String: Any]) {
        for (key, value) in page where key != "cursor" {
            if let items = value as? [Any], let earlier = document[key] as? [Any] {
                document[key] = earlier + items
            } else if document[key] == nil {
                document[key] = value
            }
        }
    }

    /// The merged object, with `cursor` set to `resumeCursor` when there is one.
    func result(resumeCursor: String?) -> [String: Any] {
        var result = document
        if let resumeCursor { result["cursor"] = resumeCursor }
        return result
    }
}
