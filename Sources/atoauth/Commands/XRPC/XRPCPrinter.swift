import ATClient
import Foundation
import HTTPTransport
import WireFormat

/// How `xrpc` prints a successful answer on stdout.
enum XRPCPrinter {
    enum Format {
        /// Indented JSON; text made safe; binary data as received, or made safe on a terminal.
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
            Output.jsonLine(response.compactJSON ?? described(response))
        case .readable:
            if let pretty = response.prettyJSON {
                Output.jsonLine(pretty)
            } else {
                readable(body)
            }
        }
    }

    /// The bytes as received (`--raw`), unless a person would see control characters on the terminal: then they
    /// are shown made safe, with a note on how to get them as sent.
    private static func raw(_ body: Data) {
        guard Output.isTerminal, !isPlainText(body) else {
            Output.bytes(body)
            return
        }
        showMadeSafe(body)
    }

    /// An answer that is not JSON, readably: text with control characters made safe on a pipe too (with a note
    /// pointing to `--raw`); binary data as received on a pipe; anything unsafe shown made safe on a terminal.
    private static func readable(_ body: Data) {
        if isPlainText(body) {
            Output.bytes(body)
        } else if Output.isTerminal {
            showMadeSafe(body)
        } else if let text = String(data: body, encoding: .utf8) {
            Output.bytes(Data(TerminalText.printable(text).utf8))
            Output.message(
                "(\(body.count) bytes of text with control characters, written made safe; use --raw for them as sent)"
            )
        } else {
            Output.bytes(body)
        }
    }

    /// Whether the body is UTF-8 text that prints as it is.
    private static func isPlainText(_ body: Data) -> Bool {
        String(data: body, encoding: .utf8).map { TerminalText.printsAsIs($0) } ?? false
    }

    private static func showMadeSafe(_ body: Data) {
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
