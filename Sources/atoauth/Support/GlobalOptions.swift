import ArgumentParser
import Foundation

/// The options the commands share, as `Command` takes them: declare it last (`@OptionGroup var global:
/// GlobalOptions<Self>`) so that help lists the command's own options first.
///
/// An option `Command` cannot use is hidden from its help and refused when given; see ``GlobalOption``.
struct GlobalOptions<Command: GlobalOptionUser>: ParsableArguments {
    @Option(
        name: .long,
        help: Self.shown(
            .home,
            "Where accounts, sessions and DPoP keys are kept (env ATOAUTH_HOME).",
            valueName: "dir"
        ),
        completion: .directory
    )
    var home: String?

    @Option(
        name: .long,
        help: Self.shown(
            .storeURL,
            "A postgresql:// URL: keep accounts and sessions in that database, shared by several machines, "
                + "instead of the files under --home (env ATOAUTH_STORE). A remote host gets sslmode=verify-full; "
                + "give the password in PGPASSWORD or a password file (passfile, ~/.pgpass), not in this URL.",
            valueName: "url"
        )
    )
    var store: String?

    @Option(
        name: .long,
        help: Self.shown(
            .account,
            "Act as this account for one command, without switching (env ATOAUTH_ACCOUNT).",
            valueName: "handle-or-did"
        ),
        completion: AccountCompletion.signedIn
    )
    var account: String?

    @Option(
        name: .long,
        help: Self.shown(
            .plcDirectory,
            "Where did:plc documents are fetched (env ATOAUTH_PLC_DIRECTORY; default https://plc.directory).",
            valueName: "url"
        ),
        transform: HTTPURL.parse
    )
    var plcDirectory: HTTPURL?

    @Option(
        name: .long,
        help: Self.shown(
            .handleResolver,
            "Resolve handles with this service's com.atproto.identity.resolveHandle instead of DNS + HTTPS (env "
                + "ATOAUTH_HANDLE_RESOLVER).",
            valueName: "url"
        ),
        transform: HTTPURL.parse
    )
    var handleResolver: HTTPURL?

    @Flag(
        name: .long,
        help: Self.shown(
            .allowHTTPLoopback,
            "Development only: allow http:// and loopback addresses for loopback hosts (env "
                + "ATOAUTH_ALLOW_HTTP_LOOPBACK=1)."
        )
    )
    var allowHTTPLoopback = false

    @Option(
        name: .long,
        help: Self.shown(
            .clientID,
            "A hosted client metadata document (env ATOAUTH_CLIENT_ID; default: the loopback development client).",
            valueName: "url"
        ),
        transform: HTTPURL.parse
    )
    var clientID: HTTPURL?

    @Flag(name: .long, help: Self.shown(.json, "Machine-readable JSON output on stdout, and errors as JSON on stderr."))
    var json = false

    @Flag(
        name: [.short, .long],
        help: Self.shown(
            .verbose,
            "Log each HTTP exchange to stderr, with every token, proof and key redacted (env ATOAUTH_VERBOSE=1)."
        )
    )
    var verbose = false

    @Option(
        name: .long,
        help: Self.shown(
            .requestTimeout,
            "How long one HTTP request may take, in seconds (env ATOAUTH_REQUEST_TIMEOUT; default 30).",
            valueName: "seconds"
        ),
        transform: Seconds.parser("--request-timeout", within: GlobalSettings.requestTimeoutRange)
    )
    var requestTimeout: Seconds?

    /// Refuses an option `Command` cannot use.
    func validate() throws {
        if let refused = given.first(where: { !Command.globalOptions.contains($0) }) {
            throw ValidationError(refused.refusal(by: Command.self))
        }
    }

    /// The options given on the command line.
    var given: [GlobalOption] {
        GlobalOption.allCases.filter { option in
            switch option {
            case .home: home != nil
            case .storeURL: store != nil
            case .account: account != nil
            case .plcDirectory: plcDirectory != nil
            case .handleResolver: handleResolver != nil
            case .allowHTTPLoopback: allowHTTPLoopback
            case .clientID: clientID != nil
            case .requestTimeout: requestTimeout != nil
            case .json: json
            case .verbose: verbose
            }
        }
    }

    /// The help of an option (the command's own text for it, if any), hidden from the help of a command that does
    /// not take it.
    private static func shown(_ option: GlobalOption, _ text: String, valueName: String? = nil) -> ArgumentHelp {
        ArgumentHelp(
            Command.globalOptionHelp[option] ?? text,
            valueName: valueName,
            visibility: Command.globalOptions.contains(option) ? .default : .private
        )
    }
}
