import ArgumentParser
import Foundation

/// The options every command takes; each also reads an environment variable, and a flag given wins.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("Where accounts, sessions and DPoP keys are kept (env ATOAUTH_HOME).", valueName: "dir")
    )
    var home: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A postgresql:// URL: keep accounts and sessions in that database, shared by several machines, "
                + "instead of the files under --home (env ATOAUTH_STORE).",
            valueName: "url"
        )
    )
    var store: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Act as this account for one command, without switching (env ATOAUTH_ACCOUNT).",
            valueName: "handle-or-did"
        )
    )
    var account: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where did:plc documents are fetched (env ATOAUTH_PLC_DIRECTORY; default https://plc.directory).",
            valueName: "url"
        )
    )
    var plcDirectory: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Resolve handles with this service's com.atproto.identity.resolveHandle instead of DNS + HTTPS (env ATOAUTH_HANDLE_RESOLVER).",
            valueName: "url"
        )
    )
    var handleResolver: String?

    @Flag(
        name: .long,
        help:
            "Development only: allow http:// and loopback addresses for loopback hosts (env ATOAUTH_ALLOW_HTTP_LOOPBACK=1)."
    )
    var allowHTTPLoopback = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A hosted client metadata document (env ATOAUTH_CLIENT_ID; default: the loopback development client).",
            valueName: "url"
        )
    )
    var clientID: String?

    @Flag(name: .long, help: "Machine-readable JSON output on stdout.")
    var json = false

    @Flag(
        name: [.short, .long],
        help: "Log each HTTP exchange to stderr, with every token, proof and key redacted (env ATOAUTH_VERBOSE=1)."
    )
    var verbose = false
}
