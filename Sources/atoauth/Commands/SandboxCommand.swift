import ATClient
import ArgumentParser
import Foundation
import Logging
import Sandbox

/// `atoauth sandbox`: a local, strict AT Protocol authorization server, PDS and PLC directory on loopback.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run a local, strict AT Protocol authorization server, PDS and PLC directory for development.",
        discussion: """
            Serves three origins on 127.0.0.1 (PLC directory, PDS, authorization server) with test accounts, in \
            memory, until Ctrl-C. Every rejected request is logged with the reason, so a client developer learns \
            what was wrong. Point atoauth at it with the printed settings, for example:

              atoauth sandbox --auto-approve &
              export ATOAUTH_PLC_DIRECTORY=... \\
                ATOAUTH_HANDLE_RESOLVER=... \\
                ATOAUTH_ALLOW_HTTP_LOOPBACK=1
              atoauth accounts add alice.test

            With --json the settings are printed as one line of JSON instead (origins, accounts, and the \
            environment for atoauth), for scripts, and every line on stderr is a JSON object (time, level, \
            message, and for a rejection its reason).

            Permission scopes (atproto.com/specs/permission): the authorization server grants granular scopes \
            within the client's registered scope, such as repo:app.bsky.feed.post?action=create, blob:image/* or \
            include:app.bsky.authCreatePosts (a permission set the PDS serves from \
            com.atproto.lexicon.resolveLexicon), and the PDS enforces them with 403 ScopeMissingError. To see how \
            a client copes with less than it asked for, withhold permissions:

              atoauth sandbox --withhold-permission 'blob:*/*' \\
                --withhold-permission \\
                'repo:app.bsky.feed.post?action=create'

            The PDS serves getSession, createRecord, getRecord, listRecords (paginated with cursor and limit), \
            deleteRecord, uploadBlob and app.bsky.actor.getProfile.

            Legacy app-password sessions beside OAuth: com.atproto.server.createSession takes each test account's \
            app password (new and random at every start, printed then), and answers with HS256 access and refresh \
            JWTs that are sent as Authorization: Bearer; refreshSession rotates the refresh JWT (a used one, \
            presented again, ends the session) and deleteSession ends it. The checks are strict: an OAuth token \
            sent as Bearer, or a legacy JWT sent with a DPoP proof or as Authorization: DPoP, is refused with the \
            reason logged. With --two-factor <handle>, that account's sign-in asks for a code \
            (AuthFactorTokenRequired), printed too.

            Confidential clients (atproto.com/specs/oauth, Client Authentication): beside public clients \
            (token_endpoint_auth_method none), the authorization server takes private_key_jwt with ES256. A \
            confidential client's document (application_type web, token_endpoint_auth_signing_alg ES256, and \
            jwks or jwks_uri, every key with a kid) is configured, or served at http://127.0.0.1:PORT/... and \
            fetched (5 s, 64 KiB, no redirects; cached 10 minutes). Its PAR, token and revocation requests carry \
            client_assertion_type and client_assertion: a JWT signed by a key of its JWKS (alg ES256, kid), with \
            iss and sub its client_id, aud the issuer, a jti never seen before, and exp at most 300 s after iat; \
            anything else is 400 invalid_client. The code exchange binds the session to the assertion's kid: a \
            refresh signed with another key is invalid_grant, and once that kid leaves the client's JWKS the \
            session ends. Its sessions last --confidential-session-lifetime (default 2 years) and each refresh \
            token --confidential-refresh-lifetime (default 3 months); public clients' sessions last 2 weeks.

            Faults of a misconfigured or non-conforming server, each off by default: --issuer-mismatch (the \
            authorization server's metadata names http://localhost:PORT as its issuer), --no-iss-parameter (no \
            iss in the authorization redirect, RFC 9207), --did-document-names-other-handle (DID documents name \
            at://other-<handle>), --prm-names-other-server (the PDS names the PLC directory as its authorization \
            server), --refuse-scope <token> (a PAR asking for it gets 400 invalid_scope), --no-dpop-nonces (no \
            DPoP-Nonce is issued or asked for) and --clock-skew <seconds> (the clocks run ahead, or behind when \
            negative: Date headers, DPoP iat checks, token times).

            Test control (loopback only, on the authorization server's origin):
              GET  /_sandbox/counters
                grants, refreshes, replays, nonce challenges, rejections,
                app-password sessions created, refreshed, deleted,
                client assertions accepted and refused, sessions
                ended by a key's removal
              POST /_sandbox/settings
                JSON: accessTokenLifetime, nonceRotationPeriod
                (whole seconds, 1 to 86400), refreshServerErrors
                (0 to 100), newNonceOnEveryResponse, slowResponses
                (seconds, 0 to 60), autoApprove, withheldPermissions,
                confidentialSessionLifetime,
                confidentialRefreshTokenLifetime (whole seconds,
                1 to 157788000), issuerMismatch, noIssParameter,
                didDocumentNamesOtherHandle, prmNamesOtherServer,
                refusedScopes, noDPoPNonces, clockSkew (whole
                seconds, -86400 to 86400);
                a value out of range is refused with 400, naming it
              POST /_sandbox/client-cache/reset
                drop the fetched client documents and JWKS
            """
    )

    @Option(
        name: .customLong("test-account"),
        help: "A test account's handle (repeat; default alice.test and bob.test)."
    )
    var accounts: [String] = []

    @Option(
        name: .customLong("two-factor"),
        help: ArgumentHelp(
            "A test account whose app-password sign-in asks for a sign-in code (repeat); the code is printed.",
            valueName: "handle"
        )
    )
    var twoFactorAccounts: [String] = []

    @Option(name: .customLong("plc-port"), help: "Port of the PLC directory (default: a free port).")
    var plcPort = 0

    @Option(name: .customLong("pds-port"), help: "Port of the PDS (default: a free port).")
    var pdsPort = 0

    @Option(name: .customLong("auth-port"), help: "Port of the authorization server (default: a free port).")
    var authorizationPort = 0

    @Flag(name: .long, help: "Approve every authorization at once, without the consent page (for scripts).")
    var autoApprove = false

    @Option(name: .long, help: "Access-token lifetime in whole seconds, 1 to 86400.")
    var accessTokenLifetime: Double = 1800

    @Option(name: .long, help: "DPoP nonce rotation period in whole seconds, 1 to 86400.")
    var noncePeriod: Double = 60

    @Option(
        name: .customLong("confidential-session-lifetime"),
        help: ArgumentHelp(
            "A confidential client's session lifetime, in whole seconds (default 2 years), 1 to 157788000.",
            valueName: "seconds"
        )
    )
    var confidentialSessionLifetime: Double = SandboxConfiguration.defaultConfidentialSessionLifetime

    @Option(
        name: .customLong("confidential-refresh-lifetime"),
        help: ArgumentHelp(
            "A confidential client's refresh token lifetime, in whole seconds (default 3 months), 1 to 157788000.",
            valueName: "seconds"
        )
    )
    var confidentialRefreshLifetime: Double = SandboxConfiguration.defaultConfidentialRefreshTokenLifetime

    @Option(name: .long, help: "Fault: answer this many refresh requests with HTTP 500 (0 to 100).")
    var failRefreshes = 0

    @Option(name: .long, help: "Fault: delay every answer by this many milliseconds (0 to 60000).")
    var slowMilliseconds = 0

    @Flag(name: .long, help: "Fault: rotate the DPoP nonce on every response.")
    var newNonceEveryResponse = false

    @Option(
        name: .customLong("withhold-permission"),
        help: ArgumentHelp(
            "A permission scope token the authorization server declines to grant, even when asked (repeat).",
            discussion: """
                Compared in canonical form, so repo:x also withholds repo?collection=x. Applies at sign-in and at \
                every refresh; atproto may be withheld too. Change it while running with POST /_sandbox/settings \
                {"withheldPermissions": [...]}.
                """,
            valueName: "token"
        )
    )
    var withheldPermissions: [String] = []

    @Flag(
        name: .customLong("issuer-mismatch"),
        help: "Fault: the authorization server's metadata names its origin with localhost as its issuer."
    )
    var issuerMismatch = false

    @Flag(
        name: .customLong("no-iss-parameter"),
        help: "Fault: no iss parameter in the authorization redirect, and the metadata says so (RFC 9207)."
    )
    var noIssParameter = false

    @Flag(
        name: .customLong("did-document-names-other-handle"),
        help: "Fault: each DID document names at://other-<handle>, so handles are not confirmed both ways."
    )
    var didDocumentNamesOtherHandle = false

    @Flag(
        name: .customLong("prm-names-other-server"),
        help: "Fault: the PDS names the PLC directory, which has no metadata, as its authorization server."
    )
    var prmNamesOtherServer = false

    @Option(
        name: .customLong("refuse-scope"),
        help: ArgumentHelp(
            "Fault: a permission scope token a pushed authorization request is refused for (repeat).",
            discussion: """
                Compared in canonical form; the PAR is answered 400 invalid_scope. Change it while running with \
                POST /_sandbox/settings {"refusedScopes": [...]}.
                """,
            valueName: "token"
        )
    )
    var refusedScopes: [String] = []

    @Flag(
        name: .customLong("no-dpop-nonces"),
        help: "Fault: issue no DPoP-Nonce and accept DPoP proofs without a nonce."
    )
    var noDPoPNonces = false

    @Option(
        name: .customLong("clock-skew"),
        parsing: .unconditional,
        help: ArgumentHelp(
            "Fault: the sandbox's clocks run this many whole seconds ahead, or behind when negative (-86400 to 86400).",
            valueName: "seconds"
        )
    )
    var clockSkew: Double = 0

    @Flag(name: [.short, .long], help: "Log every request, not only rejections.")
    var verbose = false

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Print the settings as one line of JSON (origins, accounts, environment) instead of the banner, and log "
                + "JSON lines on stderr."
        )
    )
    var json = false

    func validate() throws {
        for port in [plcPort, pdsPort, authorizationPort] where !(0...65_535).contains(port) {
            throw ValidationError("Ports are 0 (any free port) to 65535.")
        }
        for (value, range) in numberRanges {
            if let problem = range.problem(value) { throw ValidationError("\(problem).") }
        }
        let handles = accounts.isEmpty ? SandboxAccount.defaults.map(\.handle) : accounts.map { $0.lowercased() }
        for handle in twoFactorAccounts where !handles.contains(handle.lowercased()) {
            throw ValidationError(
                "--two-factor: \(handle) is not one of the test accounts (\(handles.joined(separator: ", ")))."
            )
        }
        for token in withheldPermissions {
            if let problem = SandboxConfiguration.permissionProblem(token) {
                throw ValidationError("--withhold-permission: \(problem)")
            }
        }
        for token in refusedScopes {
            if let problem = SandboxConfiguration.permissionProblem(token) {
                throw ValidationError("--refuse-scope: \(problem)")
            }
        }
    }

    /// Each numeric option's value and range: those of the matching setting of `POST /_sandbox/settings`
    /// (``SandboxSettingRange``), so no value overflows the conversions that follow.
    private var numberRanges: [(Double, SandboxSettingRange)] {
        [
            (accessTokenLifetime, SandboxSettingRange.accessTokenLifetime.renamed("--access-token-lifetime")),
            (noncePeriod, SandboxSettingRange.nonceRotationPeriod.renamed("--nonce-period")),
            (
                confidentialSessionLifetime,
                SandboxSettingRange.confidentialSessionLifetime.renamed("--confidential-session-lifetime")
            ),
            (
                confidentialRefreshLifetime,
                SandboxSettingRange.confidentialRefreshTokenLifetime.renamed("--confidential-refresh-lifetime")
            ),
            (Double(failRefreshes), SandboxSettingRange.refreshServerErrors.renamed("--fail-refreshes")),
            (
                Double(slowMilliseconds),
                SandboxSettingRange.slowResponses.renamed("--slow-milliseconds", unit: "milliseconds", scale: 1000)
            ),
            (clockSkew, SandboxSettingRange.clockSkew.renamed("--clock-skew")),
        ]
    }

    var sandboxConfiguration: SandboxConfiguration {
        let twoFactor = Set(twoFactorAccounts.map { $0.lowercased() })
        let accounts =
            self.accounts.isEmpty
            ? SandboxAccount.defaults : self.accounts.map { SandboxAccount(handle: $0.lowercased()) }
        return SandboxConfiguration(
            accounts: accounts.map { account in
                guard twoFactor.contains(account.handle) else { return account }
                var account = account
                account.authFactorToken = SandboxAccount.randomAuthFactorToken()
                return account
            },
            ports: .init(plcDirectory: plcPort, pds: pdsPort, authorizationServer: authorizationPort),
            accessTokenLifetime: accessTokenLifetime,
            confidentialSessionLifetime: confidentialSessionLifetime,
            confidentialRefreshTokenLifetime: confidentialRefreshLifetime,
            nonceRotationPeriod: noncePeriod,
            autoApprove: autoApprove,
            faults: SandboxFaults(
                refreshServerError: failRefreshes > 0 ? .times(failRefreshes) : .off,
                slowResponses: slowMilliseconds > 0 ? Double(slowMilliseconds) / 1000 : nil,
                newNonceOnEveryResponse: newNonceEveryResponse,
                issuerMismatch: issuerMismatch,
                noIssParameter: noIssParameter,
                didDocumentNamesOtherHandle: didDocumentNamesOtherHandle,
                prmNamesOtherServer: prmNamesOtherServer,
                refusedScopes: refusedScopes,
                noDPoPNonces: noDPoPNonces,
                clockSkew: clockSkew
            ),
            withheldPermissions: withheldPermissions
        )
    }

    func run() async throws {
        let configuration = sandboxConfiguration
        let level: Logger.Level = verbose ? .debug : .info
        // With --json, stderr is JSON lines too: each rejection a record, as the gateway's log.
        let server = SandboxServer(
            configuration: configuration,
            logger: json
                ? LineLogHandler.logger(label: "atoauth.sandbox", json: true, level: level)
                : SandboxServer.standardErrorLogger(level: level)
        )
        let withheld =
            configuration.withheldPermissions.isEmpty
            ? "none" : configuration.withheldPermissions.joined(separator: " ")
        try await server.run { endpoints in
            if json { return Output.line(Self.settingsJSON(endpoints, configuration)) }
            Output.line(
                """
                atoauth sandbox is running (in memory; Ctrl-C stops it).
                  PLC directory:         \(endpoints.plcDirectory.absoluteString)
                  PDS:                   \(endpoints.pds.absoluteString)
                  Authorization server:  \(endpoints.authorizationServer.absoluteString)
                  Accounts:              \(configuration.accounts.map { "\($0.handle) (\($0.did))" }.joined(separator: ", "))
                  App passwords:         \(configuration.accounts.map { "\($0.handle) \($0.appPassword)" }.joined(separator: ", "))
                  Sign-in codes:         \(Self.signInCodes(configuration))
                  Approval:              \(configuration.autoApprove ? "automatic" : "in the browser")
                  Withheld permissions:  \(withheld)
                  Faults:                \(Self.faultSummary(configuration.faults))

                Use it from another shell:
                \(endpoints.shellExports)
                  atoauth accounts add \(configuration.accounts.first?.handle ?? "alice.test")
                """
            )
        }
    }

    /// The two-factor accounts and their sign-in codes, or `none`.
    static func signInCodes(_ configuration: SandboxConfiguration) -> String {
        let codes = configuration.accounts.compactMap { account in
            account.authFactorToken.map { "\(account.handle) \($0)" }
        }
        return codes.isEmpty
            ? "none (app-password sign-ins ask for no code; see --two-factor)" : codes.joined(separator: ", ")
    }

    /// The faults that are on, in name order, each by its name in `POST /_sandbox/settings` with the value it takes
    /// there.
    static func activeFaults(_ faults: SandboxFaults) -> [(name: String, value: Any)] {
        var active: [(name: String, value: Any)] = []
        if case .times(let count) = faults.refreshServerError { active.append(("refreshServerErrors", count)) }
        if let delay = faults.slowResponses, delay > 0 { active.append(("slowResponses", delay)) }
        let flags = [
            ("newNonceOnEveryResponse", faults.newNonceOnEveryResponse), ("issuerMismatch", faults.issuerMismatch),
            ("noIssParameter", faults.noIssParameter),
            ("didDocumentNamesOtherHandle", faults.didDocumentNamesOtherHandle),
            ("prmNamesOtherServer", faults.prmNamesOtherServer), ("noDPoPNonces", faults.noDPoPNonces),
        ]
        for (name, on) in flags where on { active.append((name, true)) }
        if !faults.refusedScopes.isEmpty { active.append(("refusedScopes", faults.refusedScopes)) }
        // The option takes whole seconds only.
        if let skew = Int(exactly: faults.clockSkew), skew != 0 { active.append(("clockSkew", skew)) }
        return active.sorted { $0.name < $1.name }
    }

    /// The faults that are on, as the banner shows them (`clockSkew 3600, issuerMismatch`), or `none`.
    static func faultSummary(_ faults: SandboxFaults) -> String {
        let active = activeFaults(faults)
        guard !active.isEmpty else { return "none" }
        return active.map { fault -> String in
            switch fault.value {
            case is Bool: return fault.name
            case let tokens as [String]: return "\(fault.name) \(tokens.joined(separator: " "))"
            default: return "\(fault.name) \(fault.value)"
            }
        }
        .joined(separator: ", ")
    }

    /// The settings on one line: `{"plcDirectory", "pds", "authorizationServer", "accounts": [{"handle", "did",
    /// "appPassword", "authFactorToken"}],
    /// "autoApprove", "withheldPermissions", "faults", "environment"}`, where `faults` holds the faults that are on,
    /// as `POST /_sandbox/settings` takes them, and `environment` the variables for atoauth.
    static func settingsJSON(_ endpoints: SandboxEndpoints, _ configuration: SandboxConfiguration) -> String {
        let settings: [String: Any] = [
            "plcDirectory": endpoints.plcDirectory.absoluteString,
            "pds": endpoints.pds.absoluteString,
            "authorizationServer": endpoints.authorizationServer.absoluteString,
            "accounts": configuration.accounts.map { account in
                var entry = ["handle": account.handle, "did": account.did, "appPassword": account.appPassword]
                entry["authFactorToken"] = account.authFactorToken
                return entry
            },
            "autoApprove": configuration.autoApprove,
            "withheldPermissions": configuration.withheldPermissions,
            "faults": Dictionary(uniqueKeysWithValues: activeFaults(configuration.faults).map { ($0.name, $0.value) }),
            "environment": endpoints.environment,
        ]
        return XRPCResponse.jsonText(of: settings, pretty: false) ?? "{}"
    }
}
