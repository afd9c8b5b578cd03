import Foundation
import Synchronization
import WireFormat

/// What the three origins share: the live configuration, the clock and randomness, the origin URLs, the stores,
/// the `jti` cache and the monitor.
final class SandboxCore: Sendable {
    /// The clock the server was given, injected so tests can expire tokens; ``now()`` adds the `clockSkew` fault.
    private let clock: @Sendable () -> Date
    /// The source of tokens, codes, nonces and CSRF tokens.
    let random: any RandomSource
    /// Counters and logging.
    let monitor: SandboxMonitor
    /// Sessions, codes, pushed requests and tokens.
    let authorizations = AuthorizationStore()
    /// Records and blobs.
    let repositories = RepositoryStore()
    /// The `jti` of accepted proofs, shared by every origin.
    let replays = JTIReplayCache()
    /// The `jti` of accepted client assertions (RFC 7523 §3, item 7), each until its `exp`.
    let clientAssertionReplays = JTIReplayCache()
    /// The client metadata documents and JWK Sets fetched from loopback addresses.
    let clientDocuments = ClientDocumentCache()
    /// The PDS's legacy app-password sessions.
    let legacySessions = LegacySessionStore()
    /// Signs and checks the legacy session JWTs, with a key made for this run.
    let legacyJWT: LegacyJWT
    private let configurationState: Mutex<SandboxConfiguration>
    private let originState = Mutex<[OriginRole: String]>([:])

    /// Creates the shared state.
    init(
        configuration: SandboxConfiguration,
        monitor: SandboxMonitor,
        now: @escaping @Sendable () -> Date,
        random: any RandomSource
    ) {
        self.configurationState = Mutex(configuration)
        self.monitor = monitor
        self.clock = now
        self.random = random
        self.legacyJWT = LegacyJWT(keyBytes: random.bytes(count: 32), audience: "did:web:pds.sandbox.test")
    }

    /// A copy of the current configuration.
    var configuration: SandboxConfiguration { configurationState.withLock { $0 } }

    /// Changes the configuration; returns what the change returns.
    func updateConfiguration<Result: Sendable>(_ change: (inout SandboxConfiguration) -> Result) -> Result {
        configurationState.withLock { change(&$0) }
    }

    /// The sandbox's current time: the clock it was given, moved by the `clockSkew` fault.
    ///
    /// The skew is held to a day either way, whatever the configuration says, so no date overflows. Every expiry,
    /// token stamp, DPoP `iat` check and `Date` header reads this time.
    func now() -> Date {
        let skew = configuration.faults.clockSkew
        let bounds = SandboxSetting.clockSkew.range?.range ?? 0...0
        guard skew.isFinite, skew != 0 else { return clock() }
        return clock().addingTimeInterval(min(max(skew, bounds.lowerBound), bounds.upperBound))
    }

    /// The origin string of a role (`http://127.0.0.1:port`), or an empty string before the server started.
    func origin(_ role: OriginRole) -> String {
        originState.withLock { $0[role] ?? "" }
    }

    /// Records the origin of a role once its listener is bound.
    func setOrigin(_ origin: String, for role: OriginRole) {
        originState.withLock { $0[role] = origin }
    }

    /// A new random value: `count` bytes, base64url.
    func randomToken(bytes count: Int = 32) -> String {
        Base64URL.encode(random.bytes(count: count))
    }

    /// Uses one firing of the `refreshServerErrors` fault and counts it: whether this refresh, OAuth or app-password,
    /// is answered 500.
    func injectsRefreshFailure() -> Bool {
        guard updateConfiguration({ $0.faults.refreshServerError.fire() }) else { return false }
        monitor.count { $0.injectedRefreshFailures += 1 }
        return true
    }

    /// Waits for the `slowResponses` fault, if set: at most ``SandboxSetting/slowResponses``'s upper bound,
    /// whatever the configuration says, so no value overflows the `Duration`.
    func injectedDelay() async {
        guard let delay = configuration.faults.slowResponses, delay > 0 else { return }
        let seconds = min(delay, SandboxSetting.slowResponses.range?.range.upperBound ?? 0)
        try? await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded())))
    }
}
