/// Where a failure lies, beside what it means (its ``FailureCategory``): every public error of atoauth has one.
///
/// A front end that answers for someone else (the gateway answering a local program) maps the category and the
/// origin together to its own signal, such as an HTTP status, from one table.
public enum FailureOrigin: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The caller's input: a malformed handle, permission, URL or option, an account not signed in here, a request
    /// that cannot be sent as asked, or a cancellation.
    case input
    /// This machine: the store, its key or passphrase, a key file, a port or file, the configuration.
    case machine
    /// The account: its session ended or was signed out, or it lacks a permission.
    case account
    /// An upstream server: a PDS, an authorization server, a DID or handle resolver, the network to them, or what
    /// they answered.
    case upstream

    /// The origin's name, such as `upstream`.
    public var description: String { rawValue }
}
