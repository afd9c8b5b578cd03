import ATProtoIdentity
import ATProtoSyntax
import Failures
import Foundation
import HTTPTransport
import OAuthSessionManager
import Testing

@Suite("Errors classify themselves and read as plain sentences")
struct CategorizedErrorTests {
    @Test("each layer's errors carry the class of failure the CLI maps to an exit status")
    func kinds() throws {
        let target = try #require(URL(string: "https://pds.example.com/"))
        #expect(IdentityError.invalidInput("x").category == .usage)
        #expect(IdentityError.handleResolutionFailed("x").category == .failed)
        #expect(IdentityError.didResolutionFailed("x").category == .failed)
        #expect(IdentityError.conflictingHandleRecords("x").category == .securityCheckFailed)
        #expect(IdentityError.handleMethodsDisagree("x").category == .securityCheckFailed)
        #expect(IdentityError.invalidDIDDocument("x").category == .securityCheckFailed)
        #expect(IdentityError.handleNotConfirmed("x").category == .securityCheckFailed)
        #expect(FetchError.networkFailure("x").category == .failed)
        #expect(FetchError.unexpectedStatus(url: target, status: 500, expected: "200").category == .failed)
        #expect(FetchError.unsafeDestination("x").category == .securityCheckFailed)
        #expect(FetchError.redirectRefused(url: target, status: 302, location: nil).category == .securityCheckFailed)
        #expect(OAuthError.networkFailure("x").category == .failed)
        #expect(OAuthError.invalidProtectedResourceMetadata("x").category == .securityCheckFailed)
        #expect(OAuthError.invalidAuthorizationServerMetadata("x").category == .securityCheckFailed)
    }

    @Test(
        "a failed request's advice fits who can fix it: later only for server trouble",
        arguments: [
            (400, "invalid_scope", "refused the requested permissions", false),
            (401, "invalid_client", "does not accept this client", false),
            (404, nil, "The server refused the request", false),
            (503, "temporarily_unavailable", "try again later", true),
            (429, nil, "try again later", true),
        ] as [(Int, String?, String, Bool)]
    )
    func requestFailedAdvice(_ status: Int, _ code: String?, _ expected: String, _ later: Bool) {
        let error = OAuthError.requestFailed(
            "the pushed authorization request",
            status: status,
            serverError: code,
            description: nil
        )
        #expect(error.description.contains(expected), "\(error.description)")
        #expect(error.description.contains("try again later") == later, "\(error.description)")
    }

    @Test("a description says what happened and what to do, in one or two sentences")
    func description() {
        let error = #expect(throws: SyntaxError.self) { try Handle(validating: "john..test") }
        #expect(
            error?.description
                == "Invalid handle “john..test”: a part between periods is empty. Check the spelling of the handle."
        )
    }

    @Test("control characters from servers or users are removed and long text is cut")
    func printable() {
        let error = IdentityError.invalidInput(
            "bad\u{7}\u{1B}[2J\u{9B}\u{202E}input" + String(repeating: "x", count: 1000)
        )
        #expect(!error.reason.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(!error.reason.unicodeScalars.contains { $0.value == 0x202E })
        #expect(error.reason.count <= 301)
    }

    @Test("errors compare by code regardless of details")
    func sameCode() {
        #expect(IdentityError.handleResolutionFailed("a").hasSameCode(as: .handleResolutionFailed("b")))
        #expect(!IdentityError.handleResolutionFailed("a").hasSameCode(as: .didResolutionFailed("a")))
        #expect(FetchError.networkFailure("a").hasSameCode(as: .networkFailure("b")))
    }
}
