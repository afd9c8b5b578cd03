/// A recursive-descent parser for the `WWW-Authenticate` grammar (RFC 9110 §11.2–11.6.1).
///
/// `challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`, challenges and auth-params both separated by
/// commas; a token followed by `=` is a parameter, a token followed by space or a comma starts a new challenge.
struct WWWAuthenticateParser {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parseChallenges() -> [WWWAuthenticateChallenge] {
        var challenges: [WWWAuthenticateChallenge] = []
        while true {
            skipWhitespaceAndCommas()
            guard index < bytes.count else { return challenges }
            guard let scheme = readToken() else {
                index += 1  // Skip a stray character; every pass makes progress.
                continue
            }
            var challenge = WWWAuthenticateChallenge(scheme: scheme)
            skipWhitespace()
            if let token68 = readToken68() {
                challenge.token68 = token68
            } else {
                parseParameters(into: &challenge)
            }
            challenges.append(challenge)
        }
    }

    private mutating func parseParameters(into challenge: inout WWWAuthenticateChallenge) {
        while true {
            let start = index
            skipWhitespaceAndCommas()
            guard let name = readToken() else {
                index = start
                return
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                index = start  // A bare token begins the next challenge.
                return
            }
            index += 1
            skipWhitespace()
            let value = readQuotedString() ?? readToken() ?? ""
            if challenge.parameters[name.lowercased()] == nil {
                challenge.parameters[name.lowercased()] = value
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return }
        }
    }

    /// Reads `token68` (RFC 9110 §11.2) only when the challenge ends right after it; `name=value` is a parameter.
    private mutating func readToken68() -> String? {
        let start = index
        while index < bytes.count, isToken68Character(bytes[index]) { index += 1 }
        let bodyEnd = index
        while index < bytes.count, bytes[index] == UInt8(ascii: "=") { index += 1 }
        let end = index
        skipWhitespace()
        guard bodyEnd > start, index >= bytes.count || bytes[index] == UInt8(ascii: ",") else {
            index = start
            return nil
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private mutating func readToken() -> String? {
        let start = index
        while index < bytes.count, isTokenCharacter(bytes[index]) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    private mutating func readQuotedString() -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        var value: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: value, as: UTF8.self) }
            if byte == UInt8(ascii: "\\"), index < bytes.count {
                value.append(bytes[index])
                index += 1
            } else {
                value.append(byte)
            }
        }
        return String(decoding: value, as: UTF8.self)  // Unterminated: keep what was there.
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
    }

    private mutating func skipWhitespaceAndCommas() {
        while index < bytes.count,
            bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") || bytes[index] == UInt8(ascii: ",")
        {
            index += 1
        }
    }

    /// A `tchar` (RFC 9110 §5.6.2).
    private func isTokenCharacter(_ byte: UInt8) -> Bool {
        Self.isAlphanumeric(byte) || Self.tokenSymbols.contains(byte)
    }

    /// A character of `token68` (RFC 9110 §11.2), but the trailing `=`.
    private func isToken68Character(_ byte: UInt8) -> Bool {
        Self.isAlphanumeric(byte) || Self.token68Symbols.contains(byte)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: false
        }
    }

    private static let tokenSymbols = Array("!#$%&'*+-.^_`|~".utf8)
    private static let token68Symbols = Array("-._~+/".utf8)
}
