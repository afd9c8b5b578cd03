public import ATProtoIdentity
public import ATProtoSyntax
public import Foundation
public import HTTPTransport
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

    /// Diagnoses a handle, a DID or a PDS URL.
    ///
    /// - Parameters:
    ///   - target: what a user would type to sign in.
    ///   - localAccount: the account signed in here under a DID (or, when the handle did not resolve, a handle), if
    ///     any, for the checks of the local side. It must only read; an error it throws skips those checks, saying
    ///     why.
    /// - Returns: every finding, in the order of the chain.
    /// - Throws: ``DoctorInputError`` when `target` is none of a handle, a DID or a usable server URL.
    public func diagnose(
        _ target: String,
        localAccount: (ATIdentifier) async throws -> LocalAccount? = { _ in nil }
    ) async throws -> Diagnosis {
        let parsedTarget = try DoctorTarget(target, allowHTTPLoopback: allowHTTPLoopback)
        do {
            _ = try OAuthClient.loopback(redirectURI: Self.probeRedirectURI, scope: configuration.scope)
        } catch {
            throw DoctorInputError("The scope cannot be asked for: \(Self.reason(of: error))")
        }
        var findings: [Finding] = []
        let identity = await examineIdentity(parsedTarget)
        findings += identity.findings
        var server: ServerExamination?
        if let pds = identity.pds {
            let examined = await examineServers(pds: pds)
            findings += examined.findings
            server = examined
        } else {
            findings += ServerExamination.skippedChecks(because: "the PDS is not known: the identity did not resolve")
        }
        let client = await examineClient()
        findings.append(client.finding)
        if let endpoint = server?.pushedRequestEndpoint, let issuer = server?.issuer, let probeClient = client.client {
            findings += await probe(endpoint, issuer: issuer, client: probeClient, loginHint: identity.loginHint)
        } else {
            let why =
                client.client == nil
                ? "the client could not be used"
                : "the authorization server's pushed authorization request endpoint is not known"
            findings += Probe.skippedChecks(because: why)
        }
        if let account = identity.account {
            do {
                if let local = try await localAccount(account) {
                    findings += local.findings(now: configuration.now(), identity: identity, server: server)
                } else {
                    findings += LocalAccount.skippedChecks(because: "\(account) is not signed in here")
                }
            } catch {
                findings += LocalAccount.skippedChecks(
                    because: "this machine's store could not be read: \(Self.reason(of: error))"
                )
            }
        } else {
            findings += LocalAccount.skippedChecks(because: "no account was named: a server URL was given")
        }
        return Diagnosis(target: target, checks: findings)
    }

    var allowHTTPLoopback: Bool { configuration.allowHTTPLoopback }
}
