import ATClient
import ATProtoIdentity
import ATProtoPermissions
import ATProtoSyntax
import AccountManager
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Keystore
import OAuthSessionManager
import PostgresStore

/// A failure the tool reports: one or two sentences on stderr and an exit status from the contract.
struct CLIFailure: Error {
    /// 0 success, 1 failed, 2 usage, 3 sign-in needed, 4 security check failed, 130 cancelled.
    var status: Int32
    var message: String

    static let failed: Int32 = 1
    static let usage: Int32 = 2
    static let signInNeeded: Int32 = 3
    static let securityCheck: Int32 = 4
    static let cancelled: Int32 = 130

    /// Maps any error to its exit status and a message that never contains a token: the one place where each
    /// layer's error type meets the contract's exit codes.
    init(_ error: any Error) {
        switch error {
        case let failure as CLIFailure:
            self = failure
        case let error as OAuthError:
            let status: Int32 =
                switch error.kind {
                case .usage: Self.usage
                case .signInNeeded: Self.signInNeeded
                case .securityCheckFailed: Self.securityCheck
                case .failed: Self.failed
                }
            var hint = error.kind == .signInNeeded ? " Sign in again with `atoauth accounts add <handle>`." : ""
            if error.hasSameCode(as: .authFactorRequired) {
                hint =
                    " Set \(AppPasswordSignIn.authFactorVariable) to the code, or type it on standard input after "
                    + "the app password."
            }
            self.init(status: status, message: error.description + hint)
        case let error as AccountError:
            guard !error.isUsageError else {
                self.init(status: Self.usage, message: error.description)
                return
            }
            self.init(status: Self.signInNeeded, message: error.description + " " + Self.advice(for: error.remedy))
        case let error as IdentityError:
            let status: Int32 =
                switch error.kind {
                case .usage: Self.usage
                case .securityCheckFailed: Self.securityCheck
                case .failed: Self.failed
                }
            self.init(status: status, message: error.description)
        case let error as FetchError:
            self.init(status: error.isSecurityRefusal ? Self.securityCheck : Self.failed, message: error.description)
        case let error as SyntaxError:
            self.init(status: Self.usage, message: error.description)
        case let error as MissingPermissionError:
            var message = error.description
            if let scope = error.scopeToRequest {
                message += " Sign in again with it: atoauth accounts add \(error.account) --scope \"\(scope)\""
            } else {
                message +=
                    " Sign in again with the permissions it needs: atoauth accounts add \(error.account) --scope …"
            }
            self.init(status: Self.signInNeeded, message: message)
        case let error as PermissionError:
            self.init(status: Self.usage, message: error.description + " " + PermissionHelp.examples)
        case let error as XRPCError:
            self.init(status: Self.failed, message: error.description)
        case let error as DPoPError:
            self.init(status: Self.securityCheck, message: error.description)
        case let error as TransportError:
            self.init(status: Self.failed, message: error.description)
        case let error as PostgresStoreError:
            self.init(status: error.isUsageError ? Self.usage : Self.failed, message: error.description)
        case let error as KeystoreError:
            let hint = StoreEnvironment.hint(for: error).map { " " + $0 } ?? ""
            self.init(status: Self.failed, message: error.description + hint)
        case is CancellationError:
            self.init(status: Self.cancelled, message: "Cancelled; nothing was stored.")
        default:
            self.init(status: Self.failed, message: "The operation failed: \(error).")
        }
    }

    /// The commands that fix an account failure.
    static func advice(for remedy: AccountError.Remedy) -> String {
        switch remedy {
        case .signIn: "Sign in with `atoauth accounts add <handle>`."
        case .chooseAccount:
            "Choose one with `atoauth accounts switch <handle>` (`atoauth accounts list` shows them), or name it "
                + "with `--account`."
        case .signInAs(let account):
            "Sign in with `atoauth accounts add \(account)`, or see the signed-in accounts with `atoauth accounts list`."
        case .signInAgain(let account, let scope, let orSwitch):
            // The exact command that signs the same account in with the same permissions.
            "Sign in again with `\(AddCommand.signInCommand(account: account, scope: scope))`"
                + (orSwitch ? ", or switch to another account with `atoauth accounts switch <handle>`." : ".")
        case .signInAgainWithAppPassword(let account):
            "Sign in again with `atoauth accounts add \(account) --app-password`, or move it to OAuth with "
                + "`atoauth accounts add \(account)`."
        case .none: ""
        }
    }

    init(status: Int32, message: String) {
        self.status = status
        self.message = message
    }

    /// The contract's name for the status: `failed`, `usage`, `sign_in_needed`, `security_check_failed`, `cancelled`.
    var code: String {
        switch status {
        case Self.usage: "usage"
        case Self.signInNeeded: "sign_in_needed"
        case Self.securityCheck: "security_check_failed"
        case Self.cancelled: "cancelled"
        default: "failed"
        }
    }

    /// `{"error": "<code>", "message": "…", "exit": N}` on one line, for `--json`.
    var json: String {
        let object: [String: Any] = ["error": code, "message": message, "exit": Int(status)]
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: options) else {
            return #"{"error":"failed","exit":1,"message":"the error could not be encoded"}"#
        }
        return String(decoding: data, as: UTF8.self)
    }
}
