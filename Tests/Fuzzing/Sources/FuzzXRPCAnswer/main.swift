// A PDS's answer to an XRPC call (atproto.com/specs/xrpc) and the answer checks of every fetch: the error and
// rate-limit headers of a refusal, a `ScopeMissingError` naming a permission (atproto.com/specs/permission), an
// invalid-token answer, the printable JSON of a success, and the status, redirect and content-type rules of the
// safe fetcher (atproto.com/specs/oauth, Security Concerns).
//
// Input: the answer as text: the status on the first line, `Name: value` header lines, an empty line, the body.

import Foundation
import FuzzSupport
import WireFormat

@testable import ATClient
@testable import AccountManager
@testable import HTTPTransport

let url = URL(string: "https://pds.example.com/xrpc/com.atproto.repo.getRecord")!
let fetcher = SafeFetcher.serving(HTTPResponse(status: 200))

/// Whether two JSON texts hold the same value.
func sameJSON(_ left: Data, _ right: Data) -> Bool {
    let options = JSONSerialization.ReadingOptions.fragmentsAllowed
    guard let first = try? JSONSerialization.jsonObject(with: left, options: options) as? NSObject,
        let second = try? JSONSerialization.jsonObject(with: right, options: options) as? NSObject
    else { return false }
    return first.isEqual(second)
}

/// The text with tabs and line breaks as spaces, as `TerminalText.sanitized` writes them.
func spaced(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { [0x09, 0x0A, 0x0D].contains($0.value) ? " " : $0 }))
}

Fuzzer.run { input in
    let response = input.answer

    if response.isSuccess {
        if let pretty = XRPCResponse(http: response).prettyJSON {
            invariant(sameJSON(Data(pretty.utf8), response.body), "the printed JSON is the answer's value")
            invariant(
                TerminalText.sanitized(pretty, limit: .max) == spaced(pretty),
                "the printed JSON has no control or bidi character but its layout's line breaks"
            )
        }
    } else {
        let error = XRPCError(method: "com.atproto.repo.getRecord", response: response)
        invariantPrintable(error)
        invariant(error.status == response.status, "the error keeps the status")
        if let missing = ScopeMissingAnswer.missing(in: response) {
            invariant(response.status == 403, "only a 403 names a missing scope")
            _ = missing?.description
        }
    }
    _ = InvalidTokenAnswer.matches(response)

    for expectation in [FetchExpectation.metadata, .document, .xrpc, .text] {
        do {
            try fetcher.check(response, from: url, against: expectation)
            invariant(expectation.status.accepts(response.status), "an accepted answer has an accepted status")
        } catch {
            invariantPrintable(error)
        }
    }
}
