import ATOAuthTesting
import Foundation

/// One request sent over a fresh connection exactly as written, with the `Host` and fields a browser or a hostile
/// page would send, and what came back.
struct RawExchange {
    var status: Int
    /// The answer's header fields, names lowercased.
    var headers: [String: String]
    var body: String

    static func send(
        _ method: String,
        _ path: String,
        port: Int,
        host: String? = nil,
        fields: [String] = [],
        body: String = ""
    ) async throws -> RawExchange {
        let connection = try RawHTTPConnection(port: port)
        let own = host ?? "127.0.0.1:\(port)"
        connection.sendRequest(method, path, host: own, fields: ["Connection: close"] + fields, body: body)
        let answer = await connection.readAll()
        let parts = answer.components(separatedBy: "\r\n\r\n")
        let lines = parts[0].components(separatedBy: "\r\n")
        let status = lines[0].split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...]
            headers[line[..<colon].lowercased()] = value.trimmingCharacters(in: .whitespaces)
        }
        return RawExchange(status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}
