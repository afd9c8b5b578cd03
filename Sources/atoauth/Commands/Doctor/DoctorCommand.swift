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
            last refresh (one that failed and kept the session, or one cut off before its answer was saved), \
            whether the account moved to another PDS or authorization server since sign-in, and whether the PDS \
            still accepts the session: com.atproto.server.getSession sent once with the stored access token, never \
            refreshed (a revoked or ended session fails, naming the command that signs in again).

            Without an argument, diagnoses the active account (or the one --account names). The store is opened \
            once, before the checks (its passphrase asked at most once). It never refreshes, writes, or changes the \
            store, and no token, key or password appears in its output, nor a path of this machine but under ~ \
            (or as <store>), so it is safe to paste into a public issue. Under the summary, the failed checks are \
            repeated with their fixes; --problems shows only those. The checks stop at --deadline (default \
            \(Self.defaultDeadline) s, counted from when they start): the checks not done by then are reported as \
            skipped, "not done", and listed. With --json, one object: {"target", "checks": [{"check", "status", \
            "seen", "rule", "fix", "who"}], "notDone": [names]}; check names are stable.

            Exit status: 0 when no check failed (warnings do not fail) and every check was done, 1 when any \
            failed or the deadline left any not done, 2 for a usage error.

            Examples:
              atoauth doctor alice.bsky.social
              atoauth doctor did:plc:ewvi7nxzyoun6zhxrhs64oiz --json
              atoauth doctor https://pds.example.com \\
                --scope "atproto repo:app.bsky.feed.post"
              atoauth doctor alice.bsky.social \\
                --client-id https://app.example.com/client-metadata.json
              atoauth doctor --problems --deadline 30
            """
    )

    /// How long the checks may take in all, in seconds, unless `--deadline` says otherwise.
    static let defaultDeadline = 120

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

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How long the checks may take in all, from 1 to 3600 (default \(Self.defaultDeadline)); the checks not "
                + "done by then are reported as not done, and the exit status is 1.",
            valueName: "seconds"
        ),
        transform: WholeNumber.parser("--deadline", within: 1...3600, requirement: "must be from 1 to 3600 seconds")
    )
    var deadline: Int = Self.defaultDeadline

    @Flag(name: .long, help: "Show only the failed checks and their fixes, under the summary.")
    var problems = false

    @OptionGroup var global: GlobalOptions<Self>

    func validate() throws {
        if target != nil, global.account != nil {
            throw ValidationError("Name the account once: as the argument or with --account, not both.")
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let settings = try GlobalSettings(global, environment: environment)
        let home = try CLIContext.homeDirectory(settings, environment)
        let logger = CLIContext.logger(settings)
        var configuration = SignInDoctor.Configuration(
            identity: try CLIContext.identityConfiguration(settings),
            allowHTTPLoopback: settings.allowHTTPLoopback,
            scope: scope
        )
        if let clientID = settings.clientID { configuration.clientID = clientID }
        let diagnosis = try await CLIContext.withTransport(settings, logger: logger) { transport in
            let doctor = SignInDoctor(transport: transport, configuration: configuration)
            // The input is checked before the store is opened, so a typo never asks for a passphrase.
            let needsStore = try self.target.map { try doctor.namesAccount($0) } ?? true
            return try await DoctorLocalSide.withStore(
                settings: settings,
                environment: environment,
                home: home,
                logger: logger,
                transport: transport,
                opening: needsStore
            ) { local in
                let target: String
                if let given = self.target {
                    target = given
                } else {
                    target = try await local.defaultTarget()
                }
                let deadline = ContinuousClock.now + .seconds(self.deadline)
                return try await doctor.diagnose(target, deadline: deadline) { try await local.account($0) }
            }
        }
        let paths = DoctorPaths(
            userHome: environment["HOME"],
            storeHome: home,
            keyFile: try? StoreEnvironment.defaultKeyFile(environment: environment)
        )
        var shown = paths.shown(diagnosis)
        if settings.json, problems { shown.checks = shown.failures }
        try Output.result(
            shown,
            json: settings.json,
            text: DoctorReport.text(shown, deadline: deadline, problemsOnly: problems)
        )
        if diagnosis.hasFailure || !diagnosis.isComplete { throw ExitCode.failed }
    }
}
