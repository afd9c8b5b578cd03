import ArgumentParser

/// The options of an OAuth sign-in in the browser, shared by `accounts add` and `accounts upgrade`.
struct BrowserSignInOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The permissions to request, space-separated; atproto is always included (default: "
                + "\(AddCommand.defaultScope)).",
            valueName: "permissions"
        ),
        transform: PermissionList.parse
    )
    var scope: PermissionList?

    @Option(
        name: .long,
        parsing: .unconditional,
        help: "Listen for the redirect on this port, also registered in the loopback client_id (default: a free port).",
        transform: WholeNumber.port("--callback-port")
    )
    var callbackPort: Int?

    @Flag(
        name: .long,
        help: "Do not open a browser: print the URL, and also take the redirect address pasted on stdin."
    )
    var noBrowser = false

    @Option(
        name: .customLong("timeout"),
        parsing: .unconditional,
        help: "Seconds to wait for the browser's redirect, at most a day (86400) (default: \(defaultTimeout)).",
        transform: WholeNumber.parser("--timeout", within: 1...maximumTimeout, unit: "seconds")
    )
    var givenTimeout: Int?

    /// The seconds to wait: `--timeout`, or the default.
    var timeout: Int { givenTimeout ?? Self.defaultTimeout }

    /// The `--timeout` when none is given.
    static let defaultTimeout = 300
    /// The longest `--timeout`: a day is more than any sign-in needs, and far from where a `Duration` overflows.
    static let maximumTimeout = 86_400

    /// The permissions as requested: `--scope`'s text, or the default.
    var requestedScope: String { scope?.text ?? AddCommand.defaultScope }

    /// Whether any of these options was given, even with its default value.
    var anyGiven: Bool {
        callbackPort != nil || noBrowser || givenTimeout != nil || scope != nil
    }
}
