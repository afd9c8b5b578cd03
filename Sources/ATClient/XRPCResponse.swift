public import Foundation
public import HTTPTransport
import WireFormat

/// A successful XRPC answer: the raw body, with decoding helpers.
public struct XRPCResponse: Sendable {
    /// The HTTP response.
    public let http: HTTPResponse

    /// Wraps a 2xx answer.
    public init(http: HTTPResponse) {
        self.http = http
    }

    /// The body bytes.
    public var body: Data { http.body }

    /// The body decoded as `T`.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try Self.decoder.decode(T.self, from: http.body)
    }

    /// One decoder for every answer: its options never change, and making one per call costs more than decoding
    /// a small answer.
    private static let decoder = JSONDecoder()

    /// The body as indented JSON when it is JSON, else `nil`; control and bidi characters inside strings are
    /// written as `\\uXXXX` escapes, so it prints safely and still parses to the same value.
    public var prettyJSON: String? { jsonText(pretty: true) }

    /// The body as JSON on one line when it is JSON, else `nil`; escaped as ``prettyJSON`` is.
    public var compactJSON: String? { jsonText(pretty: false) }

    private func jsonText(pretty: Bool) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: http.body, options: .fragmentsAllowed) else {
            return nil
        }
        return Self.jsonText(of: object, pretty: pretty)
    }

    /// A JSON value (as `JSONSerialization` reads it) as JSON text with sorted keys, indented or on one line, with
    /// control and bidi characters escaped; `nil` when it is not a JSON value.
    public static func jsonText(of object: Any, pretty: Bool) -> String? {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]
        if pretty { options.insert(.prettyPrinted) }
        guard JSONSerialization.isValidJSONObject([object]),
            let data = try? JSONSerialization.data(withJSONObject: object, options: options)
        else { return nil }
        var text = String(decoding: data, as: UTF8.self)
        // An empty object or array stays `{}` or `[]` rather than spanning lines; JSON strings hold no raw line
        // breaks (RFC 8259 §7), so a break between brackets is always layout.
        if pretty {
            text = text.replacing(/\{\n\s*\}/, with: "{}").replacing(/\[\n\s*\]/, with: "[]")
        }
        return TerminalText.escapedJSON(text)
    }
}
