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
import PostgresStore
import Sandbox
import Testing
import WireFormat

@testable import ATClient
@testable import ATOAuthTesting
@testable import HTTPTransport

/// Every public error type of the package, and for each, errors made as the package makes them, with the category
/// and remedy a front end reads from them.
@Suite("Every public error is a CategorizedError with the category and remedy its cause calls for")
struct EveryErrorTests {
    /// One error and what it must say about itself.
    struct Row: Sendable, CustomTestStringConvertible {
        let error: any CategorizedError
        let category: FailureCategory
        let remedy: Remedy

        init(_ error: any CategorizedError, _ category: FailureCategory, _ remedy: Remedy = .none) {
            self.error = error
            self.category = category
            self.remedy = remedy
        }

        var testDescription: String { "\(type(of: error)): \(error)" }
    }

    /// The operation did not throw.
    struct NothingThrown: Error {}

    /// The error `body` throws, seen as a front end sees it: any error, then cast to ``CategorizedError``.
    static func thrown(_ body: () throws -> Void) throws -> any CategorizedError {
        do {
            try body()
        } catch let error as any CategorizedError {
            return error
        }
        throw NothingThrown()
    }

    /// The public error types no row can show, because only their own module makes them: the doctor's input
    /// error and the throwaway PostgreSQL server's.
    static let madeOnlyInside: Set = ["DoctorInputError", "ThrowawayPostgresError"]

    static func rows() throws -> [Row] {
        try syntaxAndWireRows() + transportAndStoreRows() + identityAndOAuthRows() + accountRows() + clientRows()
            + gatewayRows()
    }

    static func syntaxAndWireRows() throws -> [Row] {
        [
            Row(try thrown { _ = try Handle(validating: "john..test") }, .usage),
            Row(try thrown { _ = try DID(validating: "did:plc") }, .usage),
            Row(try thrown { _ = try NSID(validating: "getSession") }, .usage),
            Row(try thrown { _ = try Permission(parsing: "unknown:thing") }, .usage, .fixPermission),
            Row(
                try thrown { _ = try ScopeSet(requested: "atproto repo:app.bsky.feed.post?action=bogus") },
                .usage,
                .fixPermission
            ),
            Row(try thrown { _ = try FormEncoding.parse("code=%zz") }, .usage),
            Row(try thrown { _ = try FormEncoding.parse("state=a&state=b") }, .usage),
        ]
    }

    static func gatewayRows() -> [Row] {
        [
            Row(GatewayError.notLoopback("0.0.0.0"), .usage),
            Row(GatewayError.invalidPort(70_000), .usage),
            Row(GatewayError.addressInUse("127.0.0.1:8787", port: 8787), .failed, .chooseAnotherPort(8787)),
            Row(GatewayError.addressInUse("127.0.0.1:0", port: 0), .failed),
            Row(GatewayTokenError.nameTaken("ci-post"), .usage),
            Row(GatewayTokenError.invalidLifetime("1w"), .usage),
            Row(GatewayTokenError.unreadable("not JSON"), .failed),
        ]
    }

    static func transportAndStoreRows() throws -> [Row] {
        let target = try url("https://pds.example.com/.well-known/oauth-protected-resource")
        return [
            Row(TransportError.connectTimeout, .failed),
            Row(TransportError.timeout, .failed, .allowMoreTime),
            Row(TransportError.connectionFailed, .failed),
            Row(TransportError.cancelled, .cancelled),
            Row(HTTPRequestBody.ShortBody(expected: 10, read: 3), .usage),
            Row(HTTPResponseBody.TooLarge(limit: 1024), .failed),
            Row(
                try thrown { _ = try DestinationPolicy().checkBeforeResolving(try url("http://10.0.0.1/")) },
                .securityCheckFailed
            ),
            Row(FetchError.redirectRefused(url: target, status: 302, location: nil), .securityCheckFailed),
            Row(FetchError.unexpectedStatus(url: target, status: 500, expected: "200"), .failed),
            Row(FetchError.responseTooLarge(url: target, limit: 1024), .failed),
            Row(FetchError.networkFailure("The connection was reset."), .failed),
            Row(KeystoreError.invalidPassphrase, .failed, .giveUsablePassphrase),
            Row(KeystoreError.wrongPassphrase, .failed, .checkPassphrase),
            Row(KeystoreError.passphraseRequired, .failed, .givePassphrase),
            Row(KeystoreError.unexpectedPassphrase, .failed, .useKeyFile),
            Row(KeystoreError.missingKeyFile, .failed, .findKeyFile),
            Row(KeystoreError.invalidKeyFile, .failed, .findKeyFile),
            Row(KeystoreError.wrongKeyFile, .failed, .findKeyFile),
            Row(KeystoreError.corrupted, .failed),
            Row(KeystoreError.lockTimeout, .failed),
            Row(try thrown { _ = try PostgresStore.Configuration(url: "mysql://db.example/atoauth") }, .usage),
            Row(PostgresStoreError.unreachable, .failed),
            Row(PostgresStoreError.authenticationFailed, .failed),
            Row(PostgresStoreError.schemaTooNew, .failed),
            Row(PostgresStoreError.schemaDamaged, .failed),
        ]
    }

    static func identityAndOAuthRows() throws -> [Row] {
        let signInAgain = Remedy.signInAgain(account: nil, scope: nil, orSwitch: false)
        return [
            Row(try thrown { _ = try DPoPKey(persistedRepresentation: Data([9, 1, 2])) }, .securityCheckFailed),
            Row(DPoPError.repeatedNonceChallenge(status: 400), .securityCheckFailed),
            Row(DPoPError.challengeWithoutNonce(status: 401), .securityCheckFailed),
            Row(IdentityError.invalidInput("not a handle"), .usage),
            Row(IdentityError.handleResolutionFailed("no record", handle: "alice.test"), .failed),
            Row(IdentityError.didResolutionFailed("HTTP 404", status: 404), .failed),
            Row(IdentityError.conflictingHandleRecords("two DIDs"), .securityCheckFailed),
            Row(IdentityError.handleMethodsDisagree("DNS and HTTPS differ"), .securityCheckFailed),
            Row(IdentityError.invalidDIDDocument("no PDS", field: "service"), .securityCheckFailed),
            Row(IdentityError.handleNotConfirmed("another handle"), .securityCheckFailed),
            Row(SessionError.networkFailure("The connection was reset."), .failed),
            Row(SessionError.invalidPKCEVerifier("too short"), .usage),
            Row(SessionError.oauthSessionKept(account: "alice.test", scope: "atproto"), .usage, .confirmReplacingOAuth),
            Row(SessionError.promptNotSupported(.create, issuer: "https://auth.example.com"), .usage),
            Row(
                SessionError.invalidProtectedResourceMetadata("no server", field: "authorization_servers"),
                .securityCheckFailed
            ),
            Row(SessionError.invalidClientMetadata(field: "redirect_uris", reason: "none"), .usage),
            Row(SessionError.unknownState, .securityCheckFailed),
            Row(SessionError.issuerMismatch("another issuer"), .securityCheckFailed),
            Row(SessionError.authorizationExpired, .failed),
            Row(SessionError.authorizationFailed(serverError: "access_denied", description: nil), .failed),
            Row(
                SessionError.requestFailed("the token request", status: 503, serverError: nil, description: nil),
                .failed
            ),
            Row(SessionError.subjectMismatch("another account"), .securityCheckFailed),
            Row(SessionError.dpopFailed("nonce loop"), .securityCheckFailed),
            Row(SessionError.signInNeeded("no session"), .signInNeeded, signInAgain),
            Row(
                SessionError.refreshRefused(serverError: "invalid_grant", description: nil),
                .signInNeeded,
                signInAgain
            ),
            Row(SessionError.storedSessionUnreadable("damaged"), .signInNeeded, signInAgain),
            Row(SessionError.sessionNotSaved("alice.test", POSIXError(.ENOSPC)), .failed),
            Row(
                SessionError.appPasswordRefused(status: 401, serverError: "AuthenticationRequired", message: nil),
                .failed
            ),
            Row(SessionError.authFactorRequired, .usage, .giveSignInCode),
            Row(MetadataError.invalidClientMetadata(field: "redirect_uris", reason: "none"), .usage),
            Row(MetadataError.invalidProtectedResourceMetadata("no server"), .securityCheckFailed),
            Row(MetadataError.invalidAuthorizationServerMetadata("no PAR", field: "par"), .securityCheckFailed),
            Row(MetadataError.invalidInput("not a key"), .usage),
            Row(MetadataError.storedKeyUnreadable("damaged"), .signInNeeded, signInAgain),
            Row(LoopbackListenerError.portInUse(8080), .failed, .chooseAnotherPort(8080)),
            Row(LoopbackListenerError.notBound, .failed),
            Row(LoopbackListenerError.timedOut(300), .failed),
        ]
    }

    static func accountRows() -> [Row] {
        [
            Row(AccountError.noAccounts, .signInNeeded, .signIn),
            Row(AccountError.noActiveAccount("two accounts"), .signInNeeded, .chooseAccount),
            Row(AccountError.noSuchAccount("bob.test"), .signInNeeded, .signInAs(account: "bob.test")),
            Row(AccountError.sessionRejected("HTTP 401"), .signInNeeded, .signIn),
            Row(
                AccountError.sessionRejected("HTTP 401", account: "alice.test"),
                .signInNeeded,
                .signInAgain(account: "alice.test", scope: nil, orSwitch: false)
            ),
            Row(
                AccountError.signedOutByServer("alice.test", requestedScope: "atproto", reason: "revoked"),
                .signInNeeded,
                .signInAgain(account: "alice.test", scope: "atproto", orSwitch: false)
            ),
            Row(
                AccountError.sessionEnded("alice.test", requestedScope: nil, reason: "cut off", kind: .appPassword),
                .signInNeeded,
                .signInAgainWithAppPassword(account: "alice.test")
            ),
            Row(
                AccountError.activeAccountSignedOut("did:plc:ewvi7nxzyoun6zhxrhs64oiz"),
                .signInNeeded,
                .signInAgain(account: "did:plc:ewvi7nxzyoun6zhxrhs64oiz", scope: nil, orSwitch: true)
            ),
            Row(AccountError.accountMismatch("bound to alice.test"), .usage),
            Row(AccountError.invalidRequest("no URL"), .usage),
            Row(AccountError.alreadyOAuth("alice.test"), .usage),
        ]
    }

    static func clientRows() throws -> [Row] {
        let refusal = HTTPResponse.json(["error": "RecordNotFound", "message": "no record"], status: 400)
        let missing = MissingPermissionError(
            method: "com.atproto.repo.createRecord",
            permission: try Permission(parsing: "repo:app.bsky.feed.post"),
            account: "alice.test",
            grantedScope: "atproto",
            refusedLocally: true
        )
        let unnamed = MissingPermissionError(
            method: "com.atproto.repo.createRecord",
            permission: nil,
            account: "alice.test",
            grantedScope: "atproto",
            refusedLocally: false
        )
        return [
            Row(XRPCError(method: "com.atproto.repo.getRecord", response: refusal), .failed),
            Row(XRPCRequestError.reservedHeader("Authorization"), .usage),
            Row(
                missing,
                .signInNeeded,
                .signInWithPermission(account: "alice.test", scope: "atproto repo:app.bsky.feed.post")
            ),
            Row(unnamed, .signInNeeded, .signInWithPermission(account: "alice.test", scope: nil)),
            Row(SandboxError.notListening, .failed),
            Row(
                SandboxSettingsChange.Refusal(
                    setting: "clockSkew",
                    message: "clockSkew must be a number of seconds from -86400 to 86400"
                ),
                .usage
            ),
            Row(SandboxWorldError.notApproved(status: 200), .failed),
            Row(SandboxWorldError.noRedirect, .failed),
            Row(
                CallTimeoutError(limit: .seconds(2), call: "GET /xrpc/com.atproto.server.getSession"),
                .failed,
                .allowMoreTime
            ),
            Row(WaitTimedOut(event: "the gateway's address", timeout: .seconds(60)), .failed),
            Row(try thrown { _ = try ChildProcess(URL(fileURLWithPath: "/nonexistent/program")) }, .failed),
            Row(try thrown { throw ClientKey.UnreadablePrivateScalar() }, .failed),
        ]
    }

    @Test("each error has the category and remedy its cause calls for", arguments: try rows())
    func categoryAndRemedy(_ row: Row) {
        #expect(row.error.category == row.category)
        #expect(row.error.remedy == row.remedy)
        #expect(!row.error.description.isEmpty)
    }

    @Test("every public error type found in Sources has representative errors above")
    func everyTypeIsCovered() throws {
        let covered = Set(try Self.rows().map { String(describing: type(of: $0.error)) })
        let all = Set(try ConformanceScanTests.scan().errorTypes.keys).subtracting(Self.madeOnlyInside)
        #expect(all.subtracting(covered).isEmpty, "no rows for \(all.subtracting(covered))")
        #expect(covered.subtracting(all).isEmpty, "rows for types the scan did not find: \(covered.subtracting(all))")
    }
}
