import Foundation

/// `application/x-www-form-urlencoded` bodies and query strings, percent-encoding everything but unreserved
/// characters (RFC 3986 §2.3), so `+`, `&`, `=` and `/` in values survive intact.
enum FormEncoding {
    /// Encodes name–value pairs in order.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(percentEncode($0.0))=\(percentEncode($0.1))" }.joined(separator: "&")
    }

    /// Encodes name–value pairs as a form body.
    static func body(_ pairs: [(String, String)]) -> Data {
        Data(encode(pairs).utf8)
    }

    /// Percent-encodes every byte outside `[A-Za-z0-9-._~]`.
    static func percentEncode(_ value: String) -> String {
        var output = ""
        output.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if unreserved.contains(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return output
    }

    /// Decodes a query string or form body; `+` means space, as in forms.
    static func decode(_ text: String) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).replacingOccurrences(of: "+", with: " ")
            let value = parts.count > 1 ? String(parts[1]).replacingOccurrences(of: "+", with: " ") : ""
            return (name.removingPercentEncoding ?? name, value.removingPercentEncoding ?? value)
        }
    }

    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
