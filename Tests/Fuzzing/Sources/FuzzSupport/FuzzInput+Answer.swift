import Foundation
public import HTTPTransport

extension FuzzInput {
    /// The input read as an HTTP answer written as text, the way the corpus files are: the status on the first
    /// line, then `Name: value` header lines, an empty line, and the body, the bytes after that empty line as they
    /// are (none without one).
    ///
    /// A first line that is not a number from 100 to 599 stands for 200, so every input is some answer.
    public var answer: HTTPResponse {
        var lines: [String] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            let line = String(decoding: bytes[index..<end], as: UTF8.self)
            index = min(end + 1, bytes.endIndex)
            if line.isEmpty || line == "\r" { break }
            lines.append(line.hasSuffix("\r") ? String(line.dropLast()) : line)
        }
        let status = lines.first.flatMap { Int($0) }.flatMap { (100...599).contains($0) ? $0 : nil } ?? 200
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? parts[1].drop { $0 == " " } : ""
            headers.add(name: String(parts[0]), value: String(value))
        }
        return HTTPResponse(status: status, headers: headers, body: .init(bytes[index...]))
    }
}
