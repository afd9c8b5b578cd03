import ATProtoIdentity
import ATProtoPermissions
import ATProtoSyntax
import AccountManager
import DPoPRequestExecutor
import Failures
import Foundation
import Gateway
import Keystore
import OAuthLoopbackListener
import OAuthMetadata
import OAuthSessionManager
import Testing

@testable import ATClient
@testable import ATOAuthTesting
@testable import HTTPTransport

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
        #expect(SessionError.networkFailure("x").category == .failed)
        #expect(SessionError.invalidProtectedResourceMetadata("x").category == .securityCheckFailed)
        #expect(SessionError.invalidAuthorizationServerMetadata("x").category == .securityCheckFailed)
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
        let error = SessionError.requestFailed(
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

    @Test("codes compare with ==, whatever the details, and never need an error made for the comparison")
    func sameCode() throws {
        #expect(IdentityError.handleResolutionFailed("a").code == .handleResolutionFailed)
        #expect(IdentityError.handleResolutionFailed("a").code == IdentityError.handleResolutionFailed("b").code)
        #expect(IdentityError.handleResolutionFailed("a").code != .didResolutionFailed)
        #expect(FetchError.networkFailure("a").code == .networkFailure)
        #expect(AccountError.noSuchAccount("bob.test").code == .noSuchAccount)
        #expect(AccountError.sessionEnded("a.test", requestedScope: nil, reason: "x").code == .sessionEnded)
        #expect(TransportError.timeout.code == .timeout)
        #expect(KeystoreError.wrongPassphrase.code == .wrongPassphrase)
        #expect(SessionError.refreshRefused(serverError: "invalid_grant", description: nil).code == .refreshRefused)
        #expect(GatewayError.addressInUse("127.0.0.1:8787", port: 8787).code == .addressInUse)
        #expect(SandboxWorldError.notApproved(status: 200).code == .notApproved)
        let permission = #expect(throws: PermissionError.self) { try Permission(parsing: "unknown:thing") }
        #expect(permission?.code == .unknownResource)
        let optional: AccountError? = .noAccounts
        #expect(optional?.code == .noAccounts)
        #expect(Set([AccountError.noAccounts.code, .noAccounts, .noSuchAccount]).count == 2)
    }

    @Test("a code is known by its name, and one made from a name equals the case")
    func namedCode() {
        #expect(AccountError.Code(rawValue: "noSuchAccount") == .noSuchAccount)
        #expect(AccountError.noSuchAccount("bob.test").code.description == "noSuchAccount")
        #expect(CallTimeoutError(limit: .seconds(1), call: "GET /").code.name == "CallTimeoutError")
    }

    /// One error and where its failure lies.
    struct Origin: Sendable, CustomTestStringConvertible {
        let error: any CategorizedError
        let origin: FailureOrigin
        init(_ error: any CategorizedError, _ origin: FailureOrigin) {
            self.error = error
            self.origin = origin
        }
        var testDescription: String { "\(type(of: error)): \(error)" }
    }

    static func origins() throws -> [Origin] {
        let target = try #require(URL(string: "https://pds.example.com/"))
        return [
            Origin(IdentityError.invalidInput("x"), .input),
            Origin(AccountError.noSuchAccount("bob.test"), .input),
            Origin(AccountError.noAccounts, .input),
            Origin(AccountError.invalidRequest("no URL"), .input),
            Origin(XRPCRequestError.reservedHeader("Authorization"), .input),
            Origin(GatewayError.notLoopback("0.0.0.0"), .input),
            Origin(TransportError.cancelled, .input),
            Origin(HTTPRequestBody.ShortBody(expected: 10, read: 3), .input),
            Origin(SessionError.unknownState, .input),
            Origin(MetadataError.invalidInput("not a key"), .input),
            Origin(MetadataError.storedKeyUnreadable("damaged"), .machine),
            Origin(MetadataError.invalidAuthorizationServerMetadata("no PAR"), .upstream),
            Origin(KeystoreError.wrongPassphrase, .machine),
            Origin(KeystoreError.corrupted, .machine),
            Origin(GatewayError.addressInUse("127.0.0.1:8787", port: 8787), .machine),
            Origin(LoopbackListenerError.portInUse(8080), .machine),
            Origin(SessionError.storedSessionUnreadable("damaged"), .machine),
            Origin(SessionError.sessionNotSaved("alice.test", POSIXError(.ENOSPC)), .machine),
            Origin(DPoPError.invalidKey("damaged"), .machine),
            Origin(AccountError.sessionEnded("alice.test", requestedScope: nil, reason: "cut off"), .account),
            Origin(AccountError.signedOutByServer("alice.test", requestedScope: nil, reason: "revoked"), .account),
            Origin(SessionError.refreshRefused(serverError: "invalid_grant", description: nil), .account),
            Origin(
                MissingPermissionError(
                    method: "com.atproto.repo.createRecord",
                    permission: nil,
                    account: "alice.test",
                    grantedScope: "atproto",
                    refusedLocally: true
                ),
                .account
            ),
            Origin(TransportError.timeout, .upstream),
            Origin(FetchError.unexpectedStatus(url: target, status: 500, expected: "200"), .upstream),
            Origin(FetchError.unsafeDestination("10.0.0.1"), .upstream),
            Origin(IdentityError.handleNotConfirmed("another handle"), .upstream),
            Origin(SessionError.issuerMismatch("another issuer"), .upstream),
            Origin(DPoPError.repeatedNonceChallenge(status: 400), .upstream),
            Origin(HTTPResponseBody.TooLarge(limit: 1024), .upstream),
            Origin(CallTimeoutError(limit: .seconds(1), call: "GET /"), .upstream),
        ]
    }

    @Test("each error says where its failure lies", arguments: try origins())
    func origin(_ sample: Origin) {
        #expect(sample.error.origin == sample.origin)
    }
}
