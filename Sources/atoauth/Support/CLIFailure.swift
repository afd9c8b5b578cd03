import ATClient
import ArgumentParser
import Failures
import Foundation

/// A failure the tool reports: one or two sentences on stderr and an exit status from the contract.
struct CLIFailure: Error {
    /// The exit status (``ExitCode/usage`` and the others).
    var status: ExitCode
    var message: String
    /// The HTTP status of the server's error answer, when the failure is one (`status` in `--json`).
    var httpStatus: Int?
    /// The XRPC error name of the server's answer, such as `RecordNotFound` (`xrpcError` in `--json`).
    var xrpcError: String?

    /// Maps any error to its exit status and a message that never contains a token: the category picks the status,
    /// and the message is the error's own followed by what to do about it.
    init(_ error: any Error) {
        switch error {
        case let failure as CLIFailure:
            self = failure
        case is CancellationError:
            self.init(status: .cancelled, message: "Cancelled; nothing was stored.")
        case let error as any CategorizedError:
            let advice = RemedyText.text(for: error.remedy)
            self.init(
                status: ExitCode(error.category),
                message: RemedyText.withRequestTimeoutAdvice(
                    advice.isEmpty ? error.description : error.description + " " + advice
                )
            )
            if let answer = error as? XRPCError {
                httpStatus = answer.status
                xrpcError = answer.error
            }
        default:
            self.init(status: .failed, message: "The operation failed: \(error).")
        }
    }

    init(status: ExitCode, message: String) {
        self.status = status
        self.message = message
    }

    /// `{"error": "<code>", "exit": N, "message": "…"}` on one line with sorted keys, for `--json`; an XRPC error
    /// answer adds the HTTP `status` and the `xrpcError` name.
    var json: String {
        var object: [String: Any] = ["error": status.contractName, "message": message, "exit": Int(status.rawValue)]
        object["status"] = httpStatus
        object["xrpcError"] = xrpcError
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: options) else {
            return #"{"error":"failed","exit":1,"message":"the error could not be encoded"}"#
        }
        return String(decoding: data, as: UTF8.self)
    }
}
