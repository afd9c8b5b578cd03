import Foundation

/// Where a text stops being JSON (RFC 8259 §2–§7): the line and column of the first character that cannot continue
/// it, and what the grammar expected there, so `xrpc --input` can say where the body is wrong.
///
/// Only syntax is checked, without recursion (nesting is kept on a stack), so a deep or huge body costs no more than
/// one pass. It decides whether `xrpc --input` is JSON, as `JSONSerialization` accepts trailing commas on Linux.
package struct JSONSyntaxError: Equatable, CustomStringConvertible {
    /// The line, from 1.
    package var line: Int
    /// The column in characters, from 1.
    package var column: Int
    /// What the grammar allows there, such as "a value" or "`,` or `}`".
    package var expected: String
    /// What is there instead: the character when it is visible ASCII outside a string (never a character of a
    /// string, which may be a secret), else words such as "the end of the text".
    package var found: String

    /// "line 2, column 7: expected a value, found `x`".
    package var description: String {
        "line \(line), column \(column): expected \(expected), found \(found)"
    }

    /// The first syntax error in `bytes`, or `nil` when they parse as one JSON text.
    package static func find(in bytes: some Collection<UInt8>) -> JSONSyntaxError? {
        var scanner = JSONScanner(Array(bytes))
        guard let (offset, expected, found) = scanner.firstError() else { return nil }
        let prefix = scanner.bytes[..<offset]
        let lineStart = prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return JSONSyntaxError(
            line: prefix.count { $0 == UInt8(ascii: "\n") } + 1,
            column: String(decoding: scanner.bytes[lineStart..<offset], as: UTF8.self).count + 1,
            expected: expected,
            found: found
        )
    }
}

/// Names an object holds twice, which RFC 8259 §4 leaves to each parser: most keep the last value, some the first, so
/// two readers of one document can see two different documents.
package enum JSONRepeatedName {
    /// The first name some object of `bytes` holds a second time; `nil` when none does or `bytes` is not JSON.
    ///
    /// Names are compared as their Unicode scalars once escapes are read, as JavaScript compares them: `"a\u0062"`
    /// repeats `"ab"`.
    package static func first(in bytes: some Collection<UInt8>) -> String? {
        var scanner = JSONScanner(Array(bytes))
        guard scanner.firstError() == nil else { return nil }
        return scanner.repeatedName
    }
}

/// RFC 8259's grammar as a state machine: what may come next, and the containers open.
private struct JSONScanner {
    enum Next { case value, valueOrClose, key, keyOrClose, colon, commaOrClose, end }

    let bytes: [UInt8]
    var index = 0
    var next = Next.value
    var open: [UInt8] = []
    /// The names read so far in each open container; `nil` for an array.
    var names: [Set<[Unicode.Scalar]>?] = []
    /// The first name an object held twice.
    var repeatedName: String?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The offset of the first error, what was expected there, and the character found; `nil` when there is none.
    mutating func firstError() -> (Int, String, String)? {
        while true {
            skipWhitespace()
            guard index < bytes.count else { return next == .end ? nil : failure(expectedNow) }
            let byte = bytes[index]
            switch next {
            case .value, .valueOrClose:
                if next == .valueOrClose, byte == UInt8(ascii: "]") {
                    close()
                } else if let error = value(byte) {
                    return error
                }
            case .key, .keyOrClose:
                if next == .keyOrClose, byte == UInt8(ascii: "}") {
                    close()
                } else if byte == UInt8(ascii: "\"") {
                    let start = index
                    if let error = string() { return error }
                    noteName(bytes[start..<index])
                    next = .colon
                } else {
                    return failure(expectedNow)
                }
            case .colon:
                guard byte == UInt8(ascii: ":") else { return failure(expectedNow) }
                index += 1
                next = .value
            case .commaOrClose:
                let container = open.last ?? UInt8(ascii: "[")
                if byte == UInt8(ascii: ",") {
                    index += 1
                    next = container == UInt8(ascii: "[") ? .value : .key
                } else if byte == container + 2 {  // `[` + 2 is `]`, `{` + 2 is `}`
                    close()
                } else {
                    return failure(expectedNow)
                }
            case .end:
                return failure(expectedNow)
            }
        }
    }

    /// What may come next, in words.
    private var expectedNow: String {
        switch next {
        case .value: "a value"
        case .valueOrClose: "a value or `]`"
        case .key: "a key in double quotes"
        case .keyOrClose: "a key in double quotes or `}`"
        case .colon: "`:` after the key"
        case .commaOrClose: open.last == UInt8(ascii: "{") ? "`,` or `}`" : "`,` or `]`"
        case .end: "the end of the text after the JSON value"
        }
    }

    /// Reads one value starting with `byte`, opening a container for `[` and `{`.
    private mutating func value(_ byte: UInt8) -> (Int, String, String)? {
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            open.append(byte)
            names.append(byte == UInt8(ascii: "{") ? [] : nil)
            index += 1
            next = byte == UInt8(ascii: "[") ? .valueOrClose : .keyOrClose
            return nil
        case UInt8(ascii: "\""):
            if let error = string() { return error }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if let error = number() { return error }
        case UInt8(ascii: "t"): if let error = literal("true") { return error }
        case UInt8(ascii: "f"): if let error = literal("false") { return error }
        case UInt8(ascii: "n"): if let error = literal("null") { return error }
        default: return failure(expectedNow)
        }
        next = open.isEmpty ? .end : .commaOrClose
        return nil
    }

    /// Adds a quoted name to the innermost object's, keeping the first one seen twice.
    private mutating func noteName(_ quoted: ArraySlice<UInt8>) {
        let name: String
        if quoted.contains(UInt8(ascii: "\\")) {
            let decoded = try? JSONSerialization.jsonObject(with: Data(quoted), options: .fragmentsAllowed)
            guard let decoded = decoded as? String else { return }
            name = decoded
        } else {
            name = String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
        }
        let inserted = names[names.count - 1]?.insert(Array(name.unicodeScalars)).inserted ?? true
        if !inserted, repeatedName == nil { repeatedName = name }
    }

    private mutating func close() {
        index += 1
        open.removeLast()
        names.removeLast()
        next = open.isEmpty ? .end : .commaOrClose
    }

    /// A string from its opening quote: no raw control characters, only the escapes of RFC 8259 §7.
    private mutating func string() -> (Int, String, String)? {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return nil
            case ..<0x20:
                return (
                    index, #"the rest of the string, with line breaks and tabs written \n and \t"#,
                    "a control character"
                )
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                if bytes[index] == UInt8(ascii: "u") {
                    for _ in 0..<4 {
                        index += 1
                        guard index < bytes.count, bytes[index].isHexDigit else {
                            return failure("four hexadecimal digits after \\u", inString: true)
                        }
                    }
                } else if !Array(#""\/bfnrt"#.utf8).contains(bytes[index]) {
                    return failure(#"an escape: \" \\ \/ \b \f \n \r \t or \uXXXX"#, inString: true)
                }
                index += 1
            default:
                index += 1
            }
        }
        return failure("the closing `\"` of the string")
    }

    /// `-`, then `0` or digits not starting with 0, an optional fraction and exponent (RFC 8259 §6).
    private mutating func number() -> (Int, String, String)? {
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, bytes[index].isDigit else { return failure("a digit") }
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, bytes[index].isDigit else { return failure("a digit after `.`") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, [UInt8(ascii: "+"), UInt8(ascii: "-")].contains(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index].isDigit else { return failure("a digit of the exponent") }
            skipDigits()
        }
        return nil
    }

    private mutating func literal(_ word: String) -> (Int, String, String)? {
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else { return failure("`\(word)`") }
            index += 1
        }
        return nil
    }

    private mutating func skipDigits() {
        while index < bytes.count, bytes[index].isDigit { index += 1 }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// An error at the current offset: the character there when it is visible ASCII (and not in a string).
    private func failure(_ expected: String, inString: Bool = false) -> (Int, String, String) {
        guard index < bytes.count else { return (index, expected, "the end of the text") }
        let byte = bytes[index]
        guard !inString, (0x21...0x7E).contains(byte) else { return (index, expected, "something else") }
        return (index, expected, "`\(Character(Unicode.Scalar(byte)))`")
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    fileprivate var isHexDigit: Bool { isDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self | 0x20) }
}
