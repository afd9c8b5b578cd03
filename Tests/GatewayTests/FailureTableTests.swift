import AccountManager
import DPoPRequestExecutor
import Failures
import HTTPTransport
import Keystore
import OAuthSessionManager
import Testing

@testable import ATClient
@testable import Gateway

/// The gateway's answer to a failed forwarding comes from one table of (category, origin); these are the statuses
/// and names the gateway gave before the table, and that docs/cli.md lists.
@Suite("The gateway answers each failure from its category and origin, as it always has")
struct FailureTableTests {
    /// One error and the status and name the gateway answers it with.
    struct Case: Sendable, CustomTestStringConvertible {
        let error: any Error & Sendable
        let status: Int
        let name: String
        init(_ error: any Error & Sendable, _ status: Int, _ name: String) {
            self.error = error
            self.status = status
            self.name = name
        }
        var testDescription: String { "\(type(of: error)): \(status) \(name)" }
    }

    struct NotOurs: Error {}

    static let cases: [Case] = [
        Case(AccountError.noAccounts, 403, "AccountNotSignedIn"),
        Case(AccountError.noActiveAccount("two accounts"), 403, "AccountNotSignedIn"),
        Case(AccountError.noSuchAccount("bob.test"), 403, "AccountNotSignedIn"),
        Case(AccountError.sessionEnded("alice.test", requestedScope: nil, reason: "cut off"), 401, "SessionEnded"),
        Case(AccountError.signedOutByServer("alice.test", requestedScope: nil, reason: "x"), 401, "SessionEnded"),
        Case(AccountError.sessionRejected("HTTP 401"), 401, "SessionEnded"),
        Case(AccountError.activeAccountSignedOut("did:plc:ewvi7nxzyoun6zhxrhs64oiz"), 401, "SessionEnded"),
        Case(AccountError.invalidRequest("no URL"), 400, "InvalidRequest"),
        Case(AccountError.accountMismatch("bound to alice.test"), 500, "InternalServerError"),
        Case(AccountError.alreadyOAuth("alice.test"), 500, "InternalServerError"),
        Case(
            MissingPermissionError(
                method: "com.atproto.repo.uploadBlob",
                permission: nil,
                account: "alice.test",
                grantedScope: "atproto",
                refusedLocally: true
            ),
            403,
            "ScopeMissingError"
        ),
        Case(XRPCRequestError.reservedHeader("Authorization"), 400, "InvalidRequest"),
        Case(CancellationError(), 503, "ShuttingDown"),
        Case(TransportError.cancelled, 503, "ShuttingDown"),
        Case(TransportError.timeout, 502, "UpstreamFailed"),
        Case(TransportError.connectionFailed, 502, "UpstreamFailed"),
        Case(FetchError.networkFailure("The connection was reset."), 502, "UpstreamFailed"),
        Case(FetchError.unsafeDestination("10.0.0.1 is private"), 502, "UpstreamFailed"),
        Case(SessionError.signInNeeded("no session"), 401, "SessionEnded"),
        Case(SessionError.storedSessionUnreadable("damaged"), 401, "SessionEnded"),
        Case(SessionError.sessionNotSaved("alice.test", NotOurs()), 500, "InternalServerError"),
        Case(DPoPError.repeatedNonceChallenge(status: 401), 502, "UpstreamFailed"),
        Case(DPoPError.invalidKey("damaged"), 502, "UpstreamFailed"),
        Case(KeystoreError.corrupted, 500, "InternalServerError"),
        Case(GatewayError.spoolDirectory("/tmp/x", "full"), 500, "InternalServerError"),
        Case(NotOurs(), 500, "InternalServerError"),
    ]

    @Test("each error gets the status and name the gateway has always given it", arguments: cases)
    func answers(_ sample: Case) {
        let refusal = GatewayRefusal.answering(sample.error)
        #expect(refusal.status == sample.status)
        #expect(refusal.name == sample.name)
    }

    @Test("the table has a cell for every category and origin, each a status docs/cli.md lists")
    func everyCell() {
        let listed: Set = [400, 401, 403, 500, 502, 503]
        for category in FailureCategory.allCases {
            for origin in FailureOrigin.allCases {
                let refusal = GatewayRefusal.answer(category, origin).refusal("m")
                #expect(listed.contains(refusal.status), "\(category), \(origin): \(refusal.status)")
            }
        }
        #expect(GatewayRefusal.answer(.signInNeeded, .input) == .accountNotSignedIn)
        #expect(GatewayRefusal.answer(.signInNeeded, .account) == .sessionEnded)
        #expect(GatewayRefusal.answer(.usage, .input) == .invalidRequest)
        #expect(GatewayRefusal.answer(.usage, .account) == .internalError)
        #expect(GatewayRefusal.answer(.failed, .upstream) == .upstreamFailed)
        #expect(GatewayRefusal.answer(.failed, .machine) == .internalError)
        #expect(GatewayRefusal.answer(.securityCheckFailed, .machine) == .upstreamFailed)
        #expect(GatewayRefusal.answer(.cancelled, .input) == .shuttingDown)
    }
}
