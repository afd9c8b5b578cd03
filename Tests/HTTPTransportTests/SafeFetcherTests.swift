import ATOAuthTesting
import Failures
import Foundation
import HTTPTransport
import Testing

@Suite("The safe fetcher checks the destination and the answer")
struct SafeFetcherTests {
    let target = "https://pds.example.com/.well-known/oauth-protected-resource"

    func fetch(
        _ response: HTTPResponse,
        expecting expectation: FetchExpectation = .metadata,
        maximumResponseSize: Int = 1024
    ) async throws -> HTTPResponse {
        let transport = ScriptedTransport([target: response])
        let fetcher = SafeFetcher.offline(transport, maximumResponseSize: maximumResponseSize)
        return try await fetcher.get(try url(target), expecting: expectation)
    }

    @Test("a 200 JSON answer comes back, fetched with GET and an Accept header")
    func success() async throws {
        let transport = ScriptedTransport([target: .json(["resource": "x"])])
        let response = try await SafeFetcher.offline(transport).get(try url(target), expecting: .metadata)
        #expect(response.status == 200)
        let request = try #require(transport.requests.first)
        #expect(request.method == .get)
        #expect(request.headers["Accept"] == "application/json")
    }

    @Test("a redirect is refused and names its Location", arguments: [301, 302, 303, 307, 308])
    func redirect(_ status: Int) async throws {
        let moved = HTTPResponse(status: status, headers: ["Location": "https://evil.example/metadata"])
        let error = await #expect(throws: FetchError.self) { try await fetch(moved) }
        #expect(error?.category == .securityCheckFailed)
        #expect(error?.status == status)
        #expect(error?.description.contains("https://evil.example/metadata") == true)
    }

    @Test("metadata needs exactly 200, not another 2xx", arguments: [201, 203, 204])
    func exactly200(_ status: Int) async throws {
        let error = await #expect(throws: FetchError.self) { try await fetch(.json([:], status: status)) }
        #expect(error?.code == .unexpectedStatus)
        #expect(error?.category == .failed)
    }

    @Test("an error status carries the server's OAuth error and description")
    func errorBody() async throws {
        let answer = HTTPResponse.json(["error": "server_error", "error_description": "down\u{1B}[31m"], status: 503)
        let error = await #expect(throws: FetchError.self) { try await fetch(answer) }
        #expect(error?.status == 503)
        #expect(error?.serverError == "server_error")
        #expect(error?.serverErrorDescription == "down[31m")
    }

    @Test("a 2xx other than 200 is enough where the spec says 2xx")
    func anySuccess() async throws {
        #expect(try await fetch(.text("did:plc:x", status: 203), expecting: .text).status == 203)
    }

    @Test(
        "metadata must be JSON",
        arguments: ["text/html", "text/plain; charset=utf-8", "application/jsonx", ""]
    )
    func notJSON(_ contentType: String) async throws {
        let response = HTTPResponse(status: 200, headers: ["Content-Type": contentType], body: Data("{}".utf8))
        let error = await #expect(throws: FetchError.self) { try await fetch(response) }
        #expect(error?.code == .unexpectedContentType)
    }

    @Test("JSON media types with parameters and +json suffixes are accepted")
    func jsonVariants() async throws {
        for type in ["application/json; charset=utf-8", "Application/JSON", "application/did+ld+json"] {
            #expect(try await fetch(.json([:], contentType: type)).status == 200)
        }
    }

    @Test("a body over the cap is refused")
    func tooLarge() async throws {
        let big = HTTPResponse(
            status: 200,
            headers: ["Content-Type": "application/json"],
            body: Data(repeating: 0x20, count: 1025)
        )
        let error = await #expect(throws: FetchError.self) { try await fetch(big) }
        #expect(error?.code == .responseTooLarge)
        #expect(try await fetch(.json([:]), maximumResponseSize: 2).status == 200)
    }

    @Test("a transport failure becomes a network failure")
    func transportFailure() async throws {
        let transport = ScriptedTransport()
        transport.failing(target)
        let error = await #expect(throws: FetchError.self) {
            try await SafeFetcher.offline(transport).get(try url(target), expecting: .metadata)
        }
        #expect(error?.code == .networkFailure)
        #expect(error?.category == .failed)
    }

    @Test("a name that resolves to a private address is never contacted")
    func privateResolution() async throws {
        let transport = ScriptedTransport([target: .json([:])])
        let fetcher = SafeFetcher.offline(transport, addresses: ["pds.example.com": ["1.1.1.1", "10.0.0.7"]])
        let error = await #expect(throws: FetchError.self) {
            try await fetcher.get(try url(target), expecting: .metadata)
        }
        #expect(error?.category == .securityCheckFailed)
        #expect(error?.description.contains("10.0.0.7") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test("http and loopback are refused unless development mode allows them, and then only for loopback hosts")
    func developmentMode() async throws {
        let local = "http://localhost:2583/.well-known/oauth-protected-resource"
        let transport = ScriptedTransport([local: .json([:])])
        await #expect(throws: FetchError.self) {
            try await SafeFetcher.offline(transport).get(try url(local), expecting: .metadata)
        }
        #expect(transport.requests.isEmpty)
        let development = SafeFetcher.offline(transport, allowHTTPLoopback: true)
        #expect(try await development.get(try url(local), expecting: .metadata).status == 200)
        await #expect(throws: FetchError.self) {
            try await development.get(try url("http://pds.example.com/x"), expecting: .metadata)
        }
        let rebound = SafeFetcher.offline(transport, allowHTTPLoopback: true, addresses: ["localhost": ["10.0.0.1"]])
        await #expect(throws: FetchError.self) { try await rebound.get(try url(local), expecting: .metadata) }
        #expect(transport.requests.count == 1)
    }

    @Test("a resolver failure is a clean network failure")
    func resolverFailure() async throws {
        struct FailingResolver: AddressResolver {
            func addresses(for host: String) async throws -> [IPAddress] { throw CancellationError() }
        }
        let fetcher = SafeFetcher(transport: ScriptedTransport(), addressResolver: FailingResolver())
        let error = await #expect(throws: FetchError.self) { try await fetcher.checkDestination(try url(target)) }
        #expect(error?.code == .networkFailure)
    }
}
