import ATProtoSyntax
import AccountManager
import ArgumentParser
import Foundation
import HTTPTransport
import Keystore
import SignInDoctor

/// `atoauth doctor`.
struct DoctorCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Explain why a sign-in fails: check each step a sign-in takes, without signing in.",
        discussion: """
            Walks the chain a sign-in walks and prints one line per check: pass, warn, fail or skip, what was \
            seen, and the rule it follows (an RFC or atproto.com/specs section); for a warning or a failure, what \
            to do and who must do it (you, the app, or the server's operator):
              the handle by DNS TXT and by HTTPS, separately, and whether they agree; the DID document (its id, \
            its handle both ways, its #atproto_pds service) and the PDS's address;
              the PDS's protected-resource metadata and every member of the authorization server's metadata the \
            AT Protocol profile requires;
              with --client-id, the client metadata document, as `atoauth client check` checks it;
              a pushed authorization request with --scope, sent as a sign-in would and abandoned (nothing is \
            stored, no browser opens): whether the server accepts the request and the scope, how it issues DPoP \
            nonces, and whether its clock agrees with this machine's;
              for an account signed in here, the local side: the store's file modes, the session's expiry, the \
            last refresh (one that failed and kept the session, or one cut off before its answer was saved), and \
            whether the account moved to another PDS or authorization server since sign-in.

            Without an argument, diagnoses the active account (or the one --account names). It never refreshes, \
            writes, or changes the store, and no token, key or password appears in its output, which is safe to \
            paste into a public issue. With --json, one object: {"target", "checks": [{"check", "status", "seen", \
            "rule", "fix", "who"}]}; check names are stable.

            Exit status: 0 when no check failed (warnings do not fail), 1 when any did, 2 for a usage error.

            Examples:
              atoauth doctor alice.bsky.social
              atoauth doctor did:plc:ewvi7nxzyoun6zhxrhs64oiz --json
              atoauth doctor https://pds.example.com \\
                --scope "atproto repo:app.bsky.feed.post"
              atoauth doctor alice.bsky.social \\
                --client-id https://app.example.com/client-metadata.json
            """
    )

    static let globalOptions = GlobalOption.signedInRequests.union([.clientID])

    @Argument(
        help: ArgumentHelp(
            "A handle, a DID or a PDS's https:// URL (default: the active account).",
            valueName: "handle-did-or-url"
        ),
        completion: AccountCompletion.signedIn
    )
    var target: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The scope the probe asks for, as a sign-in would (default \"\(SignInDoctor.defaultScope)\").",
            valueName: "scope"
        )
    )
    var scope: String = SignInDoctor.defaultScope

    @OptionGroup var global: GlobalOptions<Self>

    func validate() throws {
        if target != nil, global.account != nil {
            throw ValidationError("Name the account once: as the argument or with --account, not both.")
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let settings = GlobalSettings(global, environment: environment)
        let home = try CLIContext.homeDirectory(settings, environment)
        let logger = CLIContext.logger(settings)
        var configuration = SignInDoctor.Configuration(
            identity: try CLIContext.identityConfiguration(settings),
            allowHTTPLoopback: settings.allowHTTPLoopback,
            scope: scope
        )
        if let clientID = settings.clientID {
            configuration.clientID = try CLIContext.url(clientID, option: "--client-id")
        }
        let diagnosis = try await CLIContext.withTransport(settings, logger: logger) { transport in
            let local = DoctorLocalSide(
                settings: settings,
                environment: environment,
                home: home,
                logger: logger,
                transport: transport
            )
            let target: String
            if let given = self.target {
                target = given
            } else {
                target = try await local.defaultTarget()
            }
            return try await SignInDoctor(transport: transport, configuration: configuration)
                .diagnose(target) { try await local.account($0) }
        }
        if settings.json {
            try Output.json(diagnosis)
        } else {
            Output.line(DoctorReport.text(diagnosis))
        }
        if diagnosis.hasFailure { throw ExitCode(CLIFailure.failed) }
    }
}
