import WireFormat

/// One scope token split into its resource name, positional value and parameters, all percent-decoded
/// (atproto.com/specs/permission, Scope String Syntax).
///
/// The general syntax is `resource[:positional][?name=value&…]`: printable ASCII without spaces, case-sensitive.
/// The positional part runs from the first `:` up to the first `?` and may contain further colons and `#`.
/// Parameter values are decoded as a web form decodes them (`+` is a space), as the reference implementations do;
/// a raw `#` is an ordinary character, so `aud=did:web:example.com#svc` equals `aud=did:web:example.com%23svc`.
struct ScopeTokenSyntax: Sendable {
    /// The token as written.
    let token: String
    /// The resource name, such as `repo`.
    let resource: String
    /// The decoded positional value, `nil` when there is no `:` before the query.
    let positional: String?
    /// The decoded parameters in the order written; empty pieces (`a=1&&b=2`) are skipped.
    let parameters: [(name: String, value: String)]

    init(parsing token: String) throws(PermissionError) {
        self.token = token
        let bytes = Array(token.utf8)
        guard !bytes.isEmpty else { throw .malformed(token, "it is empty") }
        guard bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .malformed(token, "it contains a space, a control character or a non-ASCII character")
        }
        let questionMark = bytes.firstIndex(of: UInt8(ascii: "?"))
        let front = bytes[..<(questionMark ?? bytes.endIndex)]
        if let colon = front.firstIndex(of: UInt8(ascii: ":")) {
            resource = String(decoding: front[..<colon], as: UTF8.self)
            positional = try Self.decode(front[(colon + 1)...], formEncoded: false, token: token)
        } else {
            resource = String(decoding: front, as: UTF8.self)
            positional = nil
        }
        var parameters: [(name: String, value: String)] = []
        if let questionMark {
            let pieces = bytes[(questionMark + 1)...].split(separator: UInt8(ascii: "&"))
            for piece in pieces {
                let equals = piece.firstIndex(of: UInt8(ascii: "=")) ?? piece.endIndex
                let name = try Self.decode(piece[..<equals], formEncoded: true, token: token)
                let value = try Self.decode(piece[equals...].dropFirst(), formEncoded: true, token: token)
                parameters.append((name, value))
            }
        }
        self.parameters = parameters
    }

    /// Percent-decodes `bytes`; with `formEncoded`, `+` stands for a space.
    ///
    /// Throws on a broken `%` escape or on bytes that are not UTF-8.
    private static func decode(
        _ bytes: ArraySlice<UInt8>,
        formEncoded: Bool,
        token: String
    ) throws(PermissionError) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let digits = bytes[(index + 1)...].prefix(2).map(PercentEncoding.hexValue)
                guard digits.count == 2, let high = digits[0], let low = digits[1] else {
                    throw .malformed(token, "a “%” is not followed by two hexadecimal digits")
                }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(formEncoded && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw .malformed(token, "a percent-encoded value is not UTF-8")
        }
        return text
    }

}
