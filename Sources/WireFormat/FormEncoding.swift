public import Failures
public import Foundation

/// `application/x-www-form-urlencoded` parsing and writing (WHATWG URL §5), for form bodies and query strings,
/// and the percent-encoding of single URL components (RFC 3986 §2.1, §2.3).
///
/// Writing percent-encodes every byte outside the unreserved characters, so `+`, `&`, `=` and `/` in values survive
/// intact. Reading is strict: a malformed escape or bytes that are not UTF-8 are an error, never guessed at.
public enum FormEncoding {
    /// A parse failure: a malformed percent escape or a parameter given twice (RFC 6749 §3.1 forbids repeats).
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What was wrong, in words.
        public let reason: String

        /// The reason.
        public var description: String { reason }
    }

    /// Parses `a=1&b=2` into a dictionary.
    ///
    /// `+` is a space, percent escapes are UTF-8, empty parameters are skipped.
    public static func parse(_ text: String) throws(Failure) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in try parsePairs(text) {
            guard result[name] == nil else { throw Failure(reason: "parameter \(name) is given more than once") }
            result[name] = value
        }
        return result
    }

    /// Parses into name–value pairs in order, keeping repeated names.
    public static func parsePairs(_ text: String) throws(Failure) -> [(String, String)] {
        var result: [(String, String)] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            result.append((try decode(parts[0]), parts.count > 1 ? try decode(parts[1]) : ""))
        }
        return result
    }

    /// Writes parameters in the given order, percent-encoding everything but unreserved characters.
    public static func encode(_ parameters: [(String, String)]) -> String {
        parameters.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Writes parameters as a form body (`application/x-www-form-urlencoded`).
    public static func body(_ parameters: [(String, String)]) -> Data {
        Data(encode(parameters).utf8)
    }

    /// Percent-encodes every byte outside `A–Z a–z 0–9 - . _ ~` (RFC 3986 §2.3).
    public static func escape(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: PercentEncoding.isUnreserved)
    }

    /// Decodes one percent-encoded component; `+` is a space, as in forms.
    public static func unescape(_ text: some StringProtocol) throws(Failure) -> String {
        try decode(Substring(text))
    }

    private static func decode(_ text: Substring) throws(Failure) -> String {
        var bytes = [UInt8]()
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(PercentEncoding.hexValue),
                    let low = iterator.next().flatMap(PercentEncoding.hexValue)
                else {
                    throw Failure(reason: "a percent escape is malformed")
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw Failure(reason: "a parameter is not valid UTF-8")
        }
        return decoded
    }

}

extension FormEncoding.Failure: CategorizedError {
    /// A form that cannot be decoded is input that cannot be used.
    public var category: FailureCategory { .usage }

    /// The caller's input: the form or query as given.
    public var origin: FailureOrigin { .input }
}
