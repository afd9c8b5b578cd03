package import Foundation

/// What ``LoopbackHTTPServer`` answers to one request.
package struct ScriptedResponse: Sendable {
    /// How to send a body slowly, in chunked encoding: bytes per chunk, and the pause before each chunk.
    package typealias Trickle = (chunkSize: Int, interval: Duration)

    /// The status code.
    package var status: Int
    /// Header fields to send; `Content-Length` is added unless present or the body is trickled.
    package var headers: [(name: String, value: String)]
    /// The body.
    package var body: Data
    /// A pause before the head is sent.
    package var delay: Duration?
    /// If set, the body is sent in chunks with pauses, and `Transfer-Encoding: chunked` replaces `Content-Length`.
    package var trickle: Trickle?
    /// Whether the server closes the connection instead of answering, as one that failed mid-request would.
    package var hangsUp: Bool

    package init(
        status: Int = 200,
        headers: [(name: String, value: String)] = [],
        body: Data = Data(),
        delay: Duration? = nil,
        trickle: Trickle? = nil,
        hangsUp: Bool = false
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.trickle = trickle
        self.hangsUp = hangsUp
    }

    /// No answer: the connection is closed once the whole request was read.
    package static let hangUp = ScriptedResponse(hangsUp: true)

    /// A `text/plain` answer.
    package static func text(_ text: String, status: Int = 200) -> ScriptedResponse {
        ScriptedResponse(status: status, headers: [("Content-Type", "text/plain")], body: Data(text.utf8))
    }

    /// An `application/json` answer with the given JSON text.
    package static func json(_ json: String, status: Int = 200) -> ScriptedResponse {
        ScriptedResponse(status: status, headers: [("Content-Type", "application/json")], body: Data(json.utf8))
    }

    /// A redirect to `location`, 302 unless told otherwise.
    package static func redirect(to location: String, status: Int = 302) -> ScriptedResponse {
        ScriptedResponse(status: status, headers: [("Location", location)])
    }
}
