public import ATProtoIdentity
public import ATProtoSyntax
public import Foundation
public import HTTPTransport
import OAuthMetadata
import OAuthSessionManager

/// Walks the chain a sign-in walks — handle, DID document, PDS, protected-resource metadata, authorization server
/// metadata, client metadata, a pushed authorization request — and reports each check as a ``Finding``, without
/// signing in (atproto.com/specs/oauth).
///
/// Nothing is stored and nothing is sent that could change an account: the probe's pushed authorization request is
/// abandoned, its `request_uri` left to expire. No finding holds a token or a key.
public struct SignInDoctor: Sendable {
    /// Where identities are resolved, what the probe asks for and how strict the fetches are.
    public struct Configuration: Sendable {
        /// The PLC directory and any handle resolution service.
        public var identity: IdentityResolver.Configuration
        /// Development only: allow `http://` and loopback addresses for loopback hosts.
        public var allowHTTPLoopback: Bool
        /// The scope the probe asks for.
        public var scope: String
        /// A hosted client metadata document to check and to probe with; `nil` for the loopback development client.
        public var clientID: URL?
        /// How host names are resolved before a fetch.
        public var addressResolver: any AddressResolver
        /// How DNS TXT records are looked up.
        public var dns: any DNSTXTResolver
        /// The local clock.
        public var now: @Sendable () -> Date

        /// Creates a configuration; by default the probe asks for `atproto transition:generic`.
        public init(
            identity: IdentityResolver.Configuration = IdentityResolver.Configuration(),
            allowHTTPLoopback: Bool = false,
            scope: String = SignInDoctor.defaultScope,
            clientID: URL? = nil,
            addressResolver: any AddressResolver = SystemAddressResolver(),
            dns: any DNSTXTResolver = SystemDNSResolver(),
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.identity = identity
            self.allowHTTPLoopback = allowHTTPLoopback
            self.scope = scope
            self.clientID = clientID
            self.addressResolver = addressResolver
            self.dns = dns
            self.now = now
        }
    }

    /// The scope a sign-in asks for when none is given.
    public static let defaultScope = "atproto transition:generic"

    let configuration: Configuration
    let fetcher: SafeFetcher
    let transport: any HTTPTransport

    /// Creates a doctor that sends every request through `transport`.
    public init(transport: any HTTPTransport, configuration: Configuration = Configuration()) {
        self.transport = transport
        self.configuration = configuration
        self.fetcher = SafeFetcher(
            transport: transport,
            configuration: SafeFetcher.Configuration(allowHTTPLoopback: configuration.allowHTTPLoopback),
            addressResolver: configuration.addressResolver
        )
    }

    /// Checks what would be diagnosed, as ``diagnose(_:deadline:localAccount:)`` does first, without sending
    /// anything: whether `target` names an account (a handle or a DID) rather than a server.
    ///
    /// - Throws: ``DoctorInputError`` when `target` is none of a handle, a DID or a usable server URL, or the scope
    ///   cannot be asked for.
    public func namesAccount(_ target: String) throws -> Bool {
        switch try parse(target) {
        case .handle, .did: true
        case .server: false
        }
    }

    /// Diagnoses a handle, a DID or a PDS URL.
    ///
    /// - Parameters:
    ///   - target: what a user would type to sign in.
    ///   - deadline: when to stop: the checks not done by then are reported as skipped and listed in
    ///     ``Diagnosis/notDone``; `nil` for none.
    ///   - localAccount: the account signed in here under a DID (or, when the handle did not resolve, a handle), if
    ///     any, for the checks of the local side. It must only read; an error it throws skips those checks, saying
    ///     why.
    /// - Returns: every finding, in the order of the chain.
    /// - Throws: ``DoctorInputError`` when `target` is none of a handle, a DID or a usable server URL;
    ///   `CancellationError` when the caller is cancelled.
    public func diagnose(
        _ target: String,
        deadline: ContinuousClock.Instant? = nil,
        localAccount: @escaping @Sendable (ATIdentifier) async throws -> LocalAccount? = { _ in nil }
    ) async throws -> Diagnosis {
        let parsedTarget = try parse(target)
        var findings: [Finding] = []
        func cutOff() throws -> Diagnosis {
            try Task.checkCancellation()
            return Self.cutOff(target, findings)
        }
        guard let identity = await DeadlineRace.value(before: deadline, { await examineIdentity(parsedTarget) })
        else { return try cutOff() }
        findings += identity.findings
        var server: ServerExamination?
        if let pds = identity.pds {
            guard let examined = await DeadlineRace.value(before: deadline, { await examineServers(pds: pds) })
            else { return try cutOff() }
            findings += examined.findings
            server = examined
        } else {
            findings += ServerExamination.skippedChecks(because: "the PDS is not known: the identity did not resolve")
        }
        guard let client = await DeadlineRace.value(before: deadline, { await examineClient() })
        else { return try cutOff() }
        findings.append(client.finding)
        if let endpoint = server?.pushedRequestEndpoint, let issuer = server?.issuer, let probeClient = client.client {
            let loginHint = identity.loginHint
            guard
                let probed = await DeadlineRace.value(
                    before: deadline,
                    {
                        await probe(
                            endpoint,
                            issuer: issuer,
                            client: probeClient,
                            loginHint: loginHint,
                            confidential: client.isConfidential
                        )
                    }
                )
            else { return try cutOff() }
            findings += probed
        } else {
            let why =
                client.client == nil
                ? "the client could not be used"
                : "the authorization server's pushed authorization request endpoint is not known"
            findings += Probe.skippedChecks(because: why)
        }
        guard let account = identity.account else {
            findings += LocalAccount.skippedChecks(because: "no account was named: a server URL was given")
            return Diagnosis(target: target, checks: findings)
        }
        let read = await DeadlineRace.value(before: deadline) { () async -> Result<LocalAccount?, any Error> in
            do {
                return Result<LocalAccount?, any Error>.success(try await localAccount(account))
            } catch {
                return .failure(error)
            }
        }
        switch read {
        case nil:
            return try cutOff()
        case .success(let local?)?:
            findings += local.findings(now: configuration.now(), identity: identity, server: server)
        case .success(nil)?:
            findings += LocalAccount.skippedChecks(because: "\(account) is not signed in here")
        case .failure(let error)?:
            findings += LocalAccount.unreadable(Self.reason(of: error))
        }
        return Diagnosis(target: target, checks: findings)
    }

    /// Reads the target and checks the scope.
    private func parse(_ target: String) throws -> DoctorTarget {
        let parsedTarget = try DoctorTarget(target, allowHTTPLoopback: allowHTTPLoopback)
        do {
            _ = try OAuthClient.loopback(redirectURI: Self.probeRedirectURI, scope: configuration.scope)
        } catch {
            throw DoctorInputError("The scope cannot be asked for: \(Self.reason(of: error))")
        }
        return parsedTarget
    }

    /// Every check a diagnosis reports, in order, with its rule.
    static var allChecks: [(name: String, rule: String)] {
        var checks = IdentityExamination.checks
        checks += ServerExamination.checks
        checks.append((name: "client-metadata", rule: Rule.clientMetadata))
        checks += Probe.checks
        checks += LocalAccount.checks
        return checks
    }

    /// The diagnosis when the deadline passed: what was found, then each check not done, skipped as such.
    private static func cutOff(_ target: String, _ findings: [Finding]) -> Diagnosis {
        let done = Set(findings.map(\.check))
        let missing = allChecks.filter { !done.contains($0.name) }
        let skipped = missing.map {
            Finding.skip($0.name, "not done: the deadline passed before this check was done", rule: $0.rule)
        }
        return Diagnosis(target: target, checks: findings + skipped, notDone: missing.map(\.name))
    }

    var allowHTTPLoopback: Bool { configuration.allowHTTPLoopback }
}
