import ATClient
import Failures
import Foundation

/// A failure the tool reports: one or two sentences on stderr and an exit status from the contract.
struct CLIFailure: Error {
    /// 0 success, 1 failed, 2 usage, 3 sign-in needed, 4 security check failed, 130 cancelled.
    var status: Int32
    var message: String
    /// The HTTP status of the server's error answer, when the failure is one (`status` in `--json`).
    var httpStatus: Int?
    /// The XRPC error name of the server's answer, such as `RecordNotFound` (`xrpcError` in `--json`).
    var xrpcError: String?

    static let failed: Int32 = 1
    static let usage: Int32 = 2
    static let signInNeeded: Int32 = 3
    static let securityCheck: Int32 = 4
    static let cancelled: Int32 = 130

    /// The contract's exit status for each category of failure.
    static func status(for category: FailureCategory) -> Int32 {
        switch category {
        case .failed: failed
        case .usage: usage
        case .signInNeeded: signInNeeded
        case .securityCheckFailed: securityCheck
        case .cancelled: cancelled
        }
    }

    /// Maps any error to its exit status and a message that never contains a token: the category picks the status,
    /// and the message is the error's own followed by what to do about it.
    init(_ error: any Error) {
        switch error {
        case let failure as CLIFailure:
            self = failure
        case is CancellationError:
            self.init(status: Self.cancelled, message: "Cancelled; nothing was stored.")
        case let error as any CategorizedError:
            let advice = RemedyText.text(for: error.remedy)
            self.init(
                status: Self.status(for: error.category),
                message: RemedyText.withRequestTimeoutAdvice(
                    advice.isEmpty ? error.description : error.description + " " + advice
                )
            )
            if let answer = error as? XRPCError {
                httpStatus = answer.status
                xrpcError = answer.error
            }
        default:
            self.init(status: Self.failed, message: "The operation failed: \(error).")
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

    /// `{"error": "<code>", "exit": N, "message": "…"}` on one line with sorted keys, for `--json`; an XRPC error
    /// answer adds the HTTP `status` and the `xrpcError` name.
    var json: String {
        var object: [String: Any] = ["error": code, "message": message, "exit": Int(status)]
        object["status"] = httpStatus
        object["xrpcError"] = xrpcError
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: options) else {
            return #"{"error":"failed","exit":1,"message":"the error could not be encoded"}"#
        }
        return String(decoding: data, as: UTF8.self)
    }
}
