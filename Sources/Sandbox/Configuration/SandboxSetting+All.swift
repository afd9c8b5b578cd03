import Foundation

extension SandboxSetting {
    /// Every setting, in the order `atoauth sandbox --help` lists them.
    public static let all: [SandboxSetting] = [
        .autoApprove, .accessTokenLifetime, .nonceRotationPeriod, .confidentialSessionLifetime,
        .confidentialRefreshTokenLifetime, .withheldPermissions, .refreshServerErrors, .slowResponses,
        .newNonceOnEveryResponse, .issuerMismatch, .noIssParameter, .didDocumentNamesOtherHandle, .prmNamesOtherServer,
        .refusedScopes, .noDPoPNonces, .clockSkew,
    ]

    /// Whether `GET /oauth/authorize` approves at once, without the consent page.
    public static let autoApprove = flag("autoApprove", \.autoApprove)
        .help("Approve every authorization at once, without the consent page (for scripts).")
    /// How long an access token lives: up to a day, the longest an `expires_in` atoauth's client believes.
    public static let accessTokenLifetime = seconds("accessTokenLifetime", \.accessTokenLifetime, 1...86_400)
        .help("How long an access token lives.")
    /// How often each origin rotates its DPoP nonce (RFC 9449 §8).
    public static let nonceRotationPeriod = seconds("nonceRotationPeriod", \.nonceRotationPeriod, 1...86_400)
        .help("How often each origin rotates its DPoP nonce.").options("nonce-rotation-period", "nonce-period")
    /// How long a confidential client's session lives after sign-in: up to 5 years of 365.25 days.
    public static let confidentialSessionLifetime = seconds(
        "confidentialSessionLifetime",
        \.confidentialSessionLifetime,
        1...157_788_000
    )
    .help("How long a confidential client's session lives after sign-in, however often it is refreshed.")
    /// How long each refresh token of a confidential client lives after it is issued, within its session.
    public static let confidentialRefreshTokenLifetime = seconds(
        "confidentialRefreshTokenLifetime",
        \.confidentialRefreshTokenLifetime,
        1...157_788_000
    )
    .help("How long each refresh token of a confidential client lives after it is issued, within the session.")
    .options("confidential-refresh-lifetime")
    /// Permission tokens granted less without an error, at sign-in and at every refresh.
    public static let withheldPermissions = tokens("withheldPermissions", "withhold-permission", \.withheldPermissions)
        .help("A permission scope token the authorization server declines to grant, even when asked (repeat).")
    /// How many refreshes the token endpoint answers `500 server_error`; `always` reads as the most, 100.
    public static let refreshServerErrors = SandboxSetting(
        key: "refreshServerErrors",
        kind: .number(
            SandboxSettingRange(name: "refreshServerErrors", unit: "refreshes", range: 0...100, wholeNumbers: true)
        ),
        read: { configuration in
            switch configuration.faults.refreshServerError {
            case .off: .number(0)
            case .times(let count): .number(Double(count))
            case .always: .number(100)
            }
        },
        write: { configuration, value in
            let count = value.number.flatMap { Int(exactly: $0) } ?? 0
            configuration.faults.refreshServerError = count > 0 ? .times(count) : .off
        }
    )
    .help("Fault: answer this many refresh requests with HTTP 500.").options("refresh-server-errors", "fail-refreshes")
    .aliases("refreshServerError").asFault
    /// How long every answer is delayed, to the millisecond.
    public static let slowResponses = SandboxSetting(
        key: "slowResponses",
        kind: .number(SandboxSettingRange(name: "slowResponses", unit: "seconds", range: 0...60, wholeNumbers: false)),
        read: { .number($0.faults.slowResponses ?? 0) },
        write: { configuration, value in
            configuration.faults.slowResponses = value.number.flatMap { $0 > 0 ? $0 : nil }
        }
    )
    .help("Fault: delay every answer by this long.").asFault
    .scaled(Option("slow-milliseconds", unit: "milliseconds", scale: 1000))
    /// Whether each DPoP endpoint rotates its nonce on every response.
    public static let newNonceOnEveryResponse = flag("newNonceOnEveryResponse", \.faults.newNonceOnEveryResponse)
        .help("Fault: rotate the DPoP nonce on every response.").asFault
        .options("new-nonce-on-every-response", "new-nonce-every-response")
    /// Whether the metadata's `issuer` names `localhost`, which a client must refuse (RFC 8414 §3.3).
    public static let issuerMismatch = flag("issuerMismatch", \.faults.issuerMismatch).asFault
        .help("Fault: the authorization server's metadata names its origin with localhost as its issuer.")
    /// Whether redirects carry no `iss` (RFC 9207).
    public static let noIssParameter = flag("noIssParameter", \.faults.noIssParameter).asFault
        .help("Fault: no iss parameter in the authorization redirect, and the metadata says so (RFC 9207).")
    /// Whether DID documents name `at://other-<handle>`.
    public static let didDocumentNamesOtherHandle = flag(
        "didDocumentNamesOtherHandle",
        \.faults.didDocumentNamesOtherHandle
    )
    .help("Fault: each DID document names at://other-<handle>, so handles are not confirmed both ways.").asFault
    /// Whether the PDS names the PLC directory as its authorization server.
    public static let prmNamesOtherServer = flag("prmNamesOtherServer", \.faults.prmNamesOtherServer).asFault
        .help("Fault: the PDS names the PLC directory, which has no metadata, as its authorization server.")
    /// Permission tokens a PAR is refused for with `400 invalid_scope`.
    public static let refusedScopes = tokens("refusedScopes", "refuse-scope", \.faults.refusedScopes).asFault
        .help("Fault: a permission scope token a pushed authorization request is refused for (repeat).")
    /// Whether no origin issues or asks for a DPoP nonce.
    public static let noDPoPNonces = flag("noDPoPNonces", \.faults.noDPoPNonces).options("no-dpop-nonces").asFault
        .help("Fault: issue no DPoP-Nonce and accept DPoP proofs without a nonce.")
    /// How far the clocks run ahead, or behind when negative: a day either way.
    public static let clockSkew = seconds("clockSkew", \.faults.clockSkew, -86_400...86_400).asFault
        .help("Fault: the sandbox's clocks run this far ahead, or behind when negative.")

    /// A duration in whole seconds.
    private static func seconds(
        _ key: String,
        _ field: any WritableKeyPath<SandboxConfiguration, TimeInterval> & Sendable,
        _ bounds: ClosedRange<Double>
    ) -> SandboxSetting {
        let range = SandboxSettingRange(name: key, unit: "seconds", range: bounds, wholeNumbers: true)
        return stored(key, .number(range), field, Value.number, \.number)
    }

    /// `true` or `false`.
    private static func flag(
        _ key: String,
        _ field: any WritableKeyPath<SandboxConfiguration, Bool> & Sendable
    ) -> SandboxSetting {
        stored(key, .flag, field, Value.flag, \.flag)
    }

    /// A list of permission scope tokens, set by a repeated option.
    private static func tokens(
        _ key: String,
        _ option: String,
        _ field: any WritableKeyPath<SandboxConfiguration, [String]> & Sendable
    ) -> SandboxSetting {
        stored(key, .tokens, field, Value.tokens, \.tokens).options(option)
    }

    /// A setting held as it is in `field`: `wrap` makes its value, which `unwrap` takes apart.
    private static func stored<Field>(
        _ key: String,
        _ kind: Kind,
        _ field: any WritableKeyPath<SandboxConfiguration, Field> & Sendable,
        _ wrap: @escaping @Sendable (Field) -> Value,
        _ unwrap: any KeyPath<Value, Field?> & Sendable
    ) -> SandboxSetting {
        SandboxSetting(
            key: key,
            kind: kind,
            read: { wrap($0[keyPath: field]) },
            write: { configuration, value in
                if let new = value[keyPath: unwrap] { configuration[keyPath: field] = new }
            }
        )
    }
}

extension SandboxSetting.Value {
    /// The number, if it is one.
    var number: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The flag, if it is one.
    var flag: Bool? {
        if case .flag(let flag) = self { return flag }
        return nil
    }

    /// The list of tokens, if it is one.
    var tokens: [String]? {
        if case .tokens(let tokens) = self { return tokens }
        return nil
    }
}
