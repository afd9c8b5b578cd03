import ArgumentParser
import Sandbox

/// The help of `atoauth sandbox`, its settings' part written from ``SandboxSetting``'s table.
enum SandboxHelp {
    static let discussion = """
        Serves three origins on 127.0.0.1 (PLC directory, PDS, authorization server) with test accounts, in memory, \
        until Ctrl-C. Every rejected request is logged with the reason, so a client developer learns what was \
        wrong. Point atoauth at it with the printed settings, for example:

          atoauth sandbox --auto-approve &
          export ATOAUTH_PLC_DIRECTORY=... \\
            ATOAUTH_HANDLE_RESOLVER=... \\
            ATOAUTH_ALLOW_HTTP_LOOPBACK=1
          atoauth accounts add alice.test

        With --json the settings are printed as one line of JSON instead (origins, accounts, and the environment for \
        atoauth), for scripts, and every line on stderr is a JSON object (time, level, message, and for a rejection \
        its reason).

        Permission scopes (atproto.com/specs/permission): the authorization server grants granular scopes within the \
        client's registered scope, such as repo:app.bsky.feed.post?action=create, blob:image/* or \
        include:app.bsky.authCreatePosts (a permission set the PDS serves from com.atproto.lexicon.resolveLexicon), \
        and the PDS enforces them with 403 ScopeMissingError. To see how a client copes with less than it asked \
        for, withhold permissions:

          atoauth sandbox --withhold-permission 'blob:*/*' \\
            --withhold-permission \\
            'repo:app.bsky.feed.post?action=create'

        The PDS serves getSession, createRecord, getRecord, listRecords (paginated with cursor and limit), \
        deleteRecord, uploadBlob and app.bsky.actor.getProfile.

        Legacy app-password sessions beside OAuth: com.atproto.server.createSession takes each test account's app \
        password (new and random at every start, printed then) and answers HS256 JWTs sent as Authorization: \
        Bearer, never with a DPoP proof; with --two-factor <handle> that account's sign-in asks for a code, printed \
        too. Confidential clients (private_key_jwt with ES256 client assertions, atproto.com/specs/oauth) are taken \
        as the reference server takes them, with a document configured or fetched from http://127.0.0.1:PORT/...; \
        their sessions are bound to the assertion's kid.

        A client in a web page can use the servers (CORS from any origin). \
        Test control is for programs on this machine, on the authorization \
        server's origin; a web page's request or another Host is refused 403:
          GET  /_sandbox/counters
            grants, refreshes, replays, nonce challenges, rejections,
            app-password sessions created, refreshed, deleted,
            client assertions accepted and refused, sessions
            ended by a key's removal
          GET  /_sandbox/settings
            every setting below by its key, with its value
          POST /_sandbox/settings
            a JSON object of settings by key; a value out of its
            range, or a key that is no setting, is refused with
            400, naming it:
        \(settingLines)
          POST /_sandbox/client-cache/reset
            drop the fetched client documents and JWKS
        """

    /// Each setting's key and what it takes, on lines that fit 64 columns.
    private static var settingLines: String {
        SandboxSetting.all.map { "      \($0.key)\n        \($0.expectation)" }
            .joined(separator: "\n")
    }
}

extension SandboxCommand {
    /// A number given for `setting`, named by its options; `nil` when not given.
    func given(_ setting: SandboxSetting, _ value: Double?) -> SandboxSettingsChange.Named? {
        value.map { (setting, setting.optionLabel, .number($0), nil) }
    }

    /// A number given in the unit of `setting`'s other option.
    func given(_ setting: SandboxSetting, inOtherUnit value: Double?) -> SandboxSettingsChange.Named? {
        guard let value, let option = setting.scaledOption else { return nil }
        return (setting, "--" + option.name, .number(value), option)
    }

    /// A flag, when given.
    func given(_ setting: SandboxSetting, _ flag: Bool) -> SandboxSettingsChange.Named? {
        flag ? (setting, setting.optionLabel, .flag(true), nil) : nil
    }

    /// Permission scope tokens, when given.
    func given(_ setting: SandboxSetting, _ tokens: [String]) -> SandboxSettingsChange.Named? {
        tokens.isEmpty ? nil : (setting, setting.optionLabel, .tokens(tokens), nil)
    }
}

extension SandboxSetting {
    /// The options as a refusal names them: `--nonce-rotation-period (or --nonce-period)`.
    var optionLabel: String {
        let names = options.map { "--" + $0 }
        return names.count > 1 ? "\(names[0]) (or \(names.dropFirst().joined(separator: ", ")))" : names[0]
    }
}

extension NameSpecification {
    /// The long names of a setting's options in its own unit.
    static func setting(_ setting: SandboxSetting) -> NameSpecification {
        NameSpecification(setting.options.map { .customLong($0) })
    }

    /// The long name of a setting's option in another unit.
    static func scaled(_ setting: SandboxSetting) -> NameSpecification {
        NameSpecification(setting.scaledOption.map { [.customLong($0.name)] } ?? [])
    }
}

extension ArgumentHelp {
    /// A setting's help, with what it takes and its default.
    static func setting(_ setting: SandboxSetting) -> ArgumentHelp {
        guard case .number(let range) = setting.kind else {
            return ArgumentHelp(setting.help, valueName: setting.valueName)
        }
        let initial = setting.value(in: SandboxConfiguration(accounts: [])).text
        return ArgumentHelp(
            "\(setting.help) Takes \(range.expectation); default \(initial).",
            valueName: setting.valueName
        )
    }

    /// The help of a setting's option in another unit.
    static func scaled(_ setting: SandboxSetting) -> ArgumentHelp {
        guard let option = setting.scaledOption, let range = setting.range else { return ArgumentHelp() }
        let scaled = range.renamed(option.name, unit: option.unit, scale: option.scale)
        return ArgumentHelp(
            "The same as --\(setting.options[0]), in \(option.unit ?? range.unit): \(scaled.expectation).",
            valueName: option.unit
        )
    }
}
