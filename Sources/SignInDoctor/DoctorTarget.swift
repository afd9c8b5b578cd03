import ATProtoSyntax
public import Failures
import Foundation
import HTTPTransport

/// What the doctor was asked about: a handle, a DID, or a PDS (or entryway) URL.
enum DoctorTarget: Sendable, Hashable {
    case handle(Handle)
    case did(DID)
    case server(URL)

    /// Reads what a user would type to sign in, as a sign-in does: a URL is `https://` (an `http://` loopback
    /// origin in development mode), anything else a handle (with an optional `@`) or a DID.
    init(_ input: String, allowHTTPLoopback: Bool) throws(DoctorInputError) {
        let text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        let lowered = text.lowercased()
        if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
            guard let url = URL(string: text) else {
                throw DoctorInputError("“\(QuotedText.printable(text, limit: 200))” is not a valid URL.")
            }
            do {
                self = .server(try OriginURL.normalize(url, allowHTTPLoopback: allowHTTPLoopback))
            } catch {
                throw DoctorInputError(
                    "\(QuotedText.printable(text, limit: 200)) is not a usable server URL: \(error.reason)."
                )
            }
            return
        }
        guard !text.contains("://") else {
            throw DoctorInputError("“\(QuotedText.printable(text, limit: 200))” is not an https:// URL.")
        }
        let identifier: ATIdentifier
        do {
            identifier = try ATIdentifier(typed: text)
        } catch {
            let reason = (error as? SyntaxError)?.reason ?? "“\(QuotedText.printable(text, limit: 200))” is not valid"
            throw DoctorInputError("\(reason); give a handle, a DID or an https:// server URL.")
        }
        switch identifier {
        case .handle(let handle): self = .handle(handle)
        case .did(let did): self = .did(did)
        }
    }
}

/// What the doctor was asked to diagnose is none of a handle, a DID or a usable server URL.
public struct DoctorInputError: CategorizedError, Hashable {
    /// Why, in a sentence.
    public let reason: String

    init(_ reason: String) { self.reason = reason }

    /// A usage error: the input must be corrected.
    public var category: FailureCategory { .usage }
    /// The reason.
    public var description: String { reason }
}
