import ATProtoPermissions
import ArgumentParser

/// The options of an OAuth sign-in in the browser, shared by `accounts add` and `accounts upgrade`.
struct BrowserSignInOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The permissions to request, space-separated; atproto is always included.",
            valueName: "permissions"
        )
    )
    var scope = AddCommand.defaultScope

    @Option(
        name: .long,
        help: "Listen for the redirect on this port, also registered in the loopback client_id (default: a free port)."
    )
    var callbackPort: Int?

    @Flag(
        name: .long,
        help: "Do not open a browser: print the URL, and also take the redirect address pasted on stdin."
    )
    var noBrowser = false

    @Option(name: .long, help: "Seconds to wait for the browser's redirect, at most a day (86400).")
    var timeout = Self.defaultTimeout

    /// The `--timeout` when none is given.
    static let defaultTimeout = 300
    /// The longest `--timeout`: a day is more than any sign-in needs, and far from where a `Duration` overflows.
    static let maximumTimeout = 86_400

    func validate() throws {
        if let callbackPort, !(1...65_535).contains(callbackPort) {
            throw ValidationError("--callback-port must be between 1 and 65535.")
        }
        guard (1...Self.maximumTimeout).contains(timeout) else {
            throw ValidationError("--timeout must be a number of seconds from 1 to \(Self.maximumTimeout).")
        }
        do {
            _ = try ScopeSet(requested: scope)
        } catch {
            throw ValidationError("--scope: \(error.description) \(PermissionHelp.examples)")
        }
    }

    /// Whether any of these options was given a value other than its default.
    var isCustomized: Bool {
        callbackPort != nil || noBrowser || timeout != Self.defaultTimeout || scope != AddCommand.defaultScope
    }
}
