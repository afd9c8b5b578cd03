import ATClient
import ATProtoSyntax
import Foundation

/// `xrpc --paginate`: fetches page after page, printing each one, or all of them merged into one object at the end.
///
/// When paging stops early (an error answer, a page that is not a JSON object, a repeated cursor, the page limit),
/// what was read is printed first, then the failure is reported.
struct XRPCPagination {
    let method: NSID
    let maximumPages: Int

    func run(
        parameters: [(String, String)],
        merged: Bool,
        fetch: ([(String, String)]) async throws -> XRPCResponse
    ) async throws {
        var pager = XRPCPager(parameters: parameters, maximumPages: maximumPages)
        var pages = MergedPages()
        var failure: (any Error)?
        while failure == nil, let next = pager.nextParameters {
            do {
                let response = try await fetch(next)
                guard let page = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] else {
                    throw CLIFailure(
                        status: .failed,
                        message: "Page \(pager.pageCount + 1) of \(method) is not a JSON object, so it has no cursor "
                            + "to follow; stopped after \(pager.pageCount) pages."
                    )
                }
                pager.accept(page)
                if merged {
                    pages.add(page)
                } else {
                    Output.line(XRPCResponse.jsonText(of: page, pretty: true) ?? "{}")
                }
            } catch {
                failure = error
            }
        }
        if merged, pager.pageCount > 0 {
            let result = pages.result(resumeCursor: pager.resumeCursor)
            Output.line(XRPCResponse.jsonText(of: result, pretty: false) ?? "{}")
        }
        if let failure = failure ?? pager.earlyStopFailure(method: method.rawValue) { throw failure }
    }
}
