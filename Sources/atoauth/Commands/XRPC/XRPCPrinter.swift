import ATClient
import Foundation
import HTTPTransport
import WireFormat

/// How `xrpc` prints a successful answer on stdout.
enum XRPCPrinter {
    enum Format {
        /// Indented JSON; other bytes as received, or made safe on a terminal.
        case readable
        /// JSON on one line (`--json`); other bytes described in a JSON object.
        case json
        /// The bytes as received (`--raw`).
        case raw
    }

    /// Prints `response` in `format`; an empty body prints nothing.
    static func print(_ response: XRPCResponse, as format: Format) {
        let body = response.body
        guard !body.isEmpty else { return }
        switch format {
        case .raw:
            raw(body)
        case .json:
            Output.line(response.compactJSON ?? described(response))
        case .readable:
            if let pretty = response.prettyJSON {
                Output.line(pretty)
            } else {
                raw(body)
            }
        }
    }

    /// The bytes as received, unless a person would see control characters on the terminal: then they are shown
    /// made safe, with a note on how to get them as sent.
    private static func raw(_ body: Data) {
        let text = String(data: body, encoding: .utf8)
        guard Output.isTerminal, !(text.map { TerminalText.printsAsIs($0) } ?? false) else {
            Output.bytes(body)
            return
        }
        Output.line(TerminalText.sanitized(String(decoding: body, as: UTF8.self), limit: 4096))
        Output.message(
            "(\(body.count) bytes with control characters or binary data, shown made safe; redirect stdout for them "
                + "as sent)"
        )
    }

    /// `{"contentType": …, "size": …, "base64": …}` for an answer that is not JSON.
    private static func described(_ response: XRPCResponse) -> String {
        let object: [String: Any] = [
            "contentType": response.http.headers["Content-Type"] ?? MediaType.octetStream,
            "size": response.body.count,
            "base64": response.body.base64EncodedString(),
        ]
        return XRPCResponse.jsonText(of: object, pretty: false) ?? "{}"
    }
}
