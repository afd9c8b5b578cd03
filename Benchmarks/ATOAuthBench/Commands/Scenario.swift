import ArgumentParser

/// The scenarios `--only` can pick, in the order they run.
enum Scenario: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// DPoP proofs against raw signatures.
    case proofs
    /// Client CPU per XRPC call (also runs `proofs`, whose signature time is its baseline).
    case overhead
    /// Client CPU per token request as a confidential client against a public one.
    case confidential
    /// Round trips under nonce rotation.
    case rotation
    /// 1,000 concurrent calls on an expired token.
    case storm
    /// Keystore open, read and write.
    case keystore
    /// The PostgreSQL store beside the file store: calls and refresh storms, 1 and 4 instances, 1 and many accounts.
    case stores
    /// `atoauth gateway` against direct calls: requests per second, added latency, memory by account count.
    case gateway
    /// `atoauth accounts list` and `atoauth whoami`.
    case cli
}
