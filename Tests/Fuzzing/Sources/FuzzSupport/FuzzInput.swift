public import Foundation

/// One input from libFuzzer, with the views the targets read it through.
public struct FuzzInput: Sendable {
    /// The raw bytes.
    public let bytes: [UInt8]

    /// Wraps the bytes of one input.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The bytes as `Data`, as a transport or a file read hands them over.
    public var data: Data { Data(bytes) }

    /// The bytes as text, invalid UTF-8 replaced as `String(decoding:as:)` does for a header or a file name.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The text's lines (split at `\n`, empty ones kept), for targets that take several strings.
    public var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The first byte, which some targets use to choose a mode, and the bytes after it.
    public var modeAndRest: (mode: UInt8, rest: FuzzInput)? {
        guard let first = bytes.first else { return nil }
        return (first, FuzzInput(bytes: Array(bytes.dropFirst())))
    }
}
