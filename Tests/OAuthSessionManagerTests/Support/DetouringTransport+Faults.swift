import Foundation
import HTTPTransport
import Sandbox
import Testing

extension DetouringTransport {
    /// Limits under which a request the sandbox holds for ``lateAnswerDelay`` times out: the total limit passes long
    /// before the answer, and a loopback connect, even on a loaded machine, long before the limit.
    static let impatient = AsyncHTTPClientTransport.Configuration(
        connectTimeout: .seconds(30),
        totalTimeout: .seconds(3)
    )

    /// How long, in seconds, the sandbox holds the late request before it carries it out.
    static let lateAnswerDelay: TimeInterval = 8

    /// Sends the next request to the path through `impatient` while `server` holds it for ``lateAnswerDelay``: the
    /// client gives up, then the server carries the request out all the same.
    func answerNextLate(from server: SandboxServer, through impatient: AsyncHTTPClientTransport) {
        detourNext { request in
            server.updateConfiguration { $0.faults.slowResponses = Self.lateAnswerDelay }
            defer { server.updateConfiguration { $0.faults.slowResponses = nil } }
            return try await impatient.send(request)
        }
    }

    /// Sends the next request to the path as usual, through `transport`, and hands its answer back changed by
    /// `change`: what a proxy that rewrites answers, or a hostile server, would return.
    func changeNextAnswer(
        through transport: any HTTPTransport,
        _ change: @escaping @Sendable (inout HTTPResponse) throws -> Void
    ) {
        detourNext { request in
            var answer = try await transport.send(request)
            try change(&answer)
            return answer
        }
    }

    /// Sends the next request to the path to the same path on 127.0.0.1:`port` instead, through `transport`.
    func sendNext(toPort port: Int, through transport: any HTTPTransport) {
        detourNext { request in
            var elsewhere = request
            elsewhere.url = try #require(URL(string: "http://127.0.0.1:\(port)\(request.url.path)"))
            return try await transport.send(elsewhere)
        }
    }
}
