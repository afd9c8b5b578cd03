import ArgumentParser
import Failures

/// The exit statuses of docs/cli.md, beside argument-parser's `success` (0) and `failure` (1).
///
/// A usage error is 2, as for most tools; argument-parser's own status for one, `validationFailure`, is 64
/// (`EX_USAGE`), so its errors are reported with 2 (``CommandLineContract``).
extension ExitCode {
    /// 1: the command failed.
    static let failed = failure
    /// 2: the command line or a value given to it was wrong.
    static let usage = ExitCode(2)
    /// 3: the account must sign in again.
    static let signInNeeded = ExitCode(3)
    /// 4: an identity, metadata, token or proof check failed.
    static let securityCheckFailed = ExitCode(4)
    /// 130: interrupted (Ctrl-C), as a shell reports SIGINT.
    static let cancelled = ExitCode(130)
    /// 141: stdout was closed under us, as a shell reports SIGPIPE.
    static let closedPipe = ExitCode(141)

    /// The status for a category of failure.
    init(_ category: FailureCategory) {
        switch category {
        case .failed: self = .failed
        case .usage: self = .usage
        case .signInNeeded: self = .signInNeeded
        case .securityCheckFailed: self = .securityCheckFailed
        case .cancelled: self = .cancelled
        }
    }

    /// The contract's name for the status in `--json` errors: `failed`, `usage`, `sign_in_needed`,
    /// `security_check_failed`, `cancelled`.
    var contractName: String {
        switch self {
        case .usage: "usage"
        case .signInNeeded: "sign_in_needed"
        case .securityCheckFailed: "security_check_failed"
        case .cancelled: "cancelled"
        default: "failed"
        }
    }
}
