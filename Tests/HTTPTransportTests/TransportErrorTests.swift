import Foundation
import Testing

@testable import HTTPTransport

@Suite("TransportError")
struct TransportErrorTests {
    private let request = HTTPRequest(
        method: .post,
        url: URL(string: "https://alice:pa55word@pds.example/xrpc/com.atproto.server.getSession?token=t0ken#part")!
    )

    @Test("errors compare by kind, whatever request they carry")
    func equalityByKind() {
        let timeout = TransportError.timeout(request, after: .seconds(30), underlying: nil)
        #expect(timeout == .timeout)
        #expect(timeout != .connectTimeout)
        #expect(TransportError.cancelled(request) == .cancelled)
        #expect(Set([timeout, .timeout, .cancelled]).count == 2)
    }

    @Test("a catch clause matches an error by kind")
    func catchByKind() {
        func classify(_ error: any Error) -> String {
            do {
                throw error
            } catch let error as TransportError where error == .responseTooLarge {
                return "too large"
            } catch let error as TransportError where error == .timeout {
                return "timeout"
            } catch {
                return "other"
            }
        }
        #expect(classify(TransportError.responseTooLarge(request, limit: 1 << 20)) == "too large")
        #expect(classify(TransportError.timeout(request, after: .seconds(1), underlying: nil)) == "timeout")
        #expect(classify(CancellationError()) == "other")
    }

    @Test("the URL it carries and shows has no query, fragment, user or password")
    func redaction() {
        struct Underlying: Error, CustomStringConvertible {
            let description = "connection reset while fetching /xrpc/x?token=t0ken"
        }
        let errors = [
            TransportError.connectTimeout(request, after: .seconds(10), underlying: nil),
            .timeout(request, after: .seconds(30), underlying: nil),
            .responseTooLarge(request, limit: 1 << 20),
            .connectionFailed(request, underlying: Underlying()),
            .invalidURL(request),
            .invalidResponse(request, underlying: Underlying()),
            .cancelled(request),
        ]
        for error in errors {
            #expect(error.url == "https://pds.example/xrpc/com.atproto.server.getSession")
            #expect(error.url?.contains("?") == false)
            #expect(error.method == .post)
            #expect(error.description.contains("POST https://pds.example/xrpc/com.atproto.server.getSession"))
            for secret in ["t0ken", "alice", "pa55word", "part"] {
                #expect(!error.description.contains(secret), "\(error.description)")
                #expect(!(error.underlying ?? "").contains(secret), "\(error.underlying ?? "")")
            }
        }
    }

    @Test("descriptions say what happened and what to do")
    func descriptions() {
        let target = "POST https://pds.example/xrpc/com.atproto.server.getSession"
        #expect(
            TransportError.timeout(request, after: .seconds(30), underlying: nil).description
                == "Timed out after 30 s waiting for \(target) — the server is slow or unreachable; try again later."
        )
        #expect(
            TransportError.responseTooLarge(request, limit: 1 << 20).description
                == "The response to \(target) is larger than the 1 MiB limit, so it was aborted"
                + " — raise maximumResponseBytes if the server is expected to send that much."
        )
        // A limit the program's user cannot change is named as a limit, with nothing to raise.
        #expect(
            TransportError.responseTooLarge(request, limit: 1 << 20, setting: nil).description
                == "The response to \(target) is larger than the 1 MiB limit, so it was aborted."
        )
        #expect(TransportError.cancelled(request).description == "\(target) was cancelled.")
    }

    @Test(
        "a connection failure says what failed in the user's terms, without errno text",
        arguments: [
            ("connection reset (error set): Connection refused (errno: 111)", "Nothing accepted the connection"),
            ("DNS error: SocketAddressError.UnknownHost: Name or service not known", "could not be resolved"),
            ("handshakeFailed(NIOSSL.BoringSSLError.sslError([Error: 268435581 certificate verify failed]))", "TLS"),
            ("Connection reset by peer (errno: 104)", "was cut by the server or the network"),
            ("something new", "Could not reach pds.example"),
        ]
    )
    func connectionFailures(_ underlying: String, _ expected: String) {
        struct Underlying: Error, CustomStringConvertible { let description: String }
        let error = TransportError.connectionFailed(request, underlying: Underlying(description: underlying))
        #expect(error.description.contains(expected), "\(error.description)")
        #expect(!error.description.contains("errno"))
        #expect(error.underlying == underlying)
    }

    @Test("only a failure before anything was sent says the request never reached the server")
    func reachedServerByKind() {
        struct Underlying: Error {}
        #expect(!TransportError.connectTimeout(request, after: .seconds(10), underlying: nil).mayHaveReachedServer)
        #expect(!TransportError.invalidURL(request).mayHaveReachedServer)
        #expect(!TransportError.cancelled(request, beforeSending: true).mayHaveReachedServer)
        #expect(TransportError.cancelled(request).mayHaveReachedServer)
        #expect(TransportError.timeout(request, after: .seconds(30), underlying: nil).mayHaveReachedServer)
        #expect(TransportError.responseTooLarge(request, limit: 1 << 20).mayHaveReachedServer)
        #expect(TransportError.invalidResponse(request, underlying: Underlying()).mayHaveReachedServer)
        let timeoutKind: TransportError = .timeout
        let connectTimeoutKind: TransportError = .connectTimeout
        #expect(timeoutKind.mayHaveReachedServer && !connectTimeoutKind.mayHaveReachedServer)
        #expect(TransportError.cancelled(request, beforeSending: true) == .cancelled)
    }

    @Test(
        "a connection failure before the request (refused, unknown name, TLS handshake) never reached the server",
        arguments: [
            ("connection reset (error set): Connection refused (errno: 111)", false),
            ("DNS error: SocketAddressError.UnknownHost: Name or service not known", false),
            ("handshakeFailed(NIOSSL.BoringSSLError.sslError([Error: 268435581 certificate verify failed]))", false),
            ("NIOSSLExtraError.failedToValidateHostname: Couldn't find pds.example in certificate from peer", false),
            ("Connection reset by peer (errno: 104)", true),
            ("HTTPClientError.remoteConnectionClosed", true),
            ("sslError([Error: 268435612 error:100000fc:SSL routines:OPENSSL_internal:BAD_RECORD_MAC])", true),
            ("something new", true),
        ]
    )
    func reachedServerAfterConnectionFailure(_ underlying: String, _ mayHaveReachedServer: Bool) {
        struct Underlying: Error, CustomStringConvertible { let description: String }
        let error = TransportError.connectionFailed(request, underlying: Underlying(description: underlying))
        #expect(error.mayHaveReachedServer == mayHaveReachedServer)
    }

    @Test("durations and sizes read naturally")
    func formatting() {
        #expect(TransportError.format(.milliseconds(300)) == "300 ms")
        #expect(TransportError.format(.seconds(30)) == "30 s")
        #expect(TransportError.format(.milliseconds(1500)) == "1.5 s")
        #expect(TransportError.format(.seconds(Int64.max)) == "9223372036.8 s")
        #expect(TransportError.format(.seconds(-1)) == "0 ms")
        #expect(TransportError.format(bytes: 1 << 20) == "1 MiB")
        #expect(TransportError.format(bytes: 64 << 10) == "64 KiB")
        #expect(TransportError.format(bytes: 1000) == "1000 bytes")
    }
}
