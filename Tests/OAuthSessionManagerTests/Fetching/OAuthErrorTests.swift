import Foundation
import OAuthSessionManager
import Testing

@Suite("Errors classify themselves and read as plain sentences")
struct OAuthErrorTests {
    @Test("each kind of failure maps to the exit status class the CLI needs")
    func kinds() throws {
        let target = try url("https://pds.example.com/")
        #expect(OAuthError.invalidHandle("x").kind == .usage)
        #expect(OAuthError.invalidDID("x").kind == .usage)
        #expect(OAuthError.invalidInput("x").kind == .usage)
        #expect(OAuthError.handleResolutionFailed("x").kind == .failed)
        #expect(OAuthError.didResolutionFailed("x").kind == .failed)
        #expect(OAuthError.networkFailure("x").kind == .failed)
        #expect(OAuthError.unexpectedStatus(url: target, status: 500, expected: "200").kind == .failed)
        #expect(OAuthError.conflictingHandleRecords("x").kind == .securityCheckFailed)
        #expect(OAuthError.handleMethodsDisagree("x").kind == .securityCheckFailed)
        #expect(OAuthError.invalidDIDDocument("x").kind == .securityCheckFailed)
        #expect(OAuthError.handleNotConfirmed("x").kind == .securityCheckFailed)
        #expect(OAuthError.unsafeDestination("x").kind == .securityCheckFailed)
        #expect(OAuthError.redirectRefused(url: target, status: 302, location: nil).kind == .securityCheckFailed)
        #expect(OAuthError.invalidProtectedResourceMetadata("x").kind == .securityCheckFailed)
        #expect(OAuthError.invalidAuthorizationServerMetadata("x").kind == .securityCheckFailed)
    }

    @Test("a description says what happened and what to do, in one or two sentences")
    func description() {
        let error = OAuthError.invalidHandle("“john..test”: a part between periods is empty")
        #expect(
            error.description
                == "Invalid handle: “john..test”: a part between periods is empty. Check the spelling of the handle."
        )
    }

    @Test("control characters from servers or users are replaced and long text is cut")
    func printable() {
        let error = OAuthError.invalidInput("bad\u{7}\u{1B}[2Jinput" + String(repeating: "x", count: 1000))
        #expect(!error.reason.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(error.reason.count <= 301)
    }

    @Test("errors compare by code regardless of details")
    func sameCode() {
        #expect(OAuthError.invalidHandle("a").hasSameCode(as: .invalidHandle("b")))
        #expect(!OAuthError.invalidHandle("a").hasSameCode(as: .invalidDID("a")))
    }
}
