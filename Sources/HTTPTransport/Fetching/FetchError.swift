public import Failures
public import Foundation
import WireFormat

/// A fetch that was refused or failed: an unsafe destination, a redirect, an unexpected status or content type,
/// an oversized answer, or the network (RFC 8414 §3, RFC 9728 §3, atproto.com/specs/oauth "Security Concerns").
///
/// Its ``category`` tells a refusal that protects the user (an unsafe address, a redirect) from a failure that
/// may pass. The error carries the server's answer as data and never a token.
public struct FetchError: CategorizedError, Hashable {
    /// Which failure a ``FetchError`` is, whatever its details: compared with `==`, as in
    /// `error.code == .unsafeDestination`.
    ///
    /// New codes may come in a later version: a `switch` over them needs a `default` case.
    @nonexhaustive
    public enum Code: String, NamedFailureCode {
        /// A URL was refused before any request: its scheme, or a host that is or resolves to a non-public address.
        case unsafeDestination
        /// The server answered with a redirect, which identity and metadata fetches never follow.
        case redirectRefused
        /// The server answered with a status other than the one the spec requires.
        case unexpectedStatus
        /// The server's answer is not JSON where the spec requires JSON.
        case unexpectedContentType
        /// The response body is larger than the configured maximum; the request was aborted.
        case responseTooLarge
        /// The request could not be sent or its answer not read (DNS, connection, timeout).
        case networkFailure
    }

    /// Which failure this is, whatever its details: `error.code == .unsafeDestination`.
    public let code: Code
    /// What went wrong, in words, safe to print.
    public let reason: String
    /// The HTTP status of the answer, when there was one.
    public let status: Int?
    /// The server's `error` code, when its answer had one.
    public let serverError: String?
    /// The server's `error_description` or `message`, when its answer had one; safe to print.
    public let serverErrorDescription: String?
    /// What the user can do: allow loopback for a refused development server on this machine; else nothing
    /// particular.
    public let remedy: Remedy

    init(
        _ code: Code,
        _ reason: String,
        status: Int? = nil,
        serverError: String? = nil,
        serverErrorDescription: String? = nil,
        remedy: Remedy = .none
    ) {
        self.code = code
        self.remedy = remedy
        self.reason = TerminalText.sanitized(reason)
        self.status = status
        self.serverError = serverError.map { TerminalText.sanitized($0, limit: 80) }
        self.serverErrorDescription = serverErrorDescription.map { TerminalText.sanitized($0) }
    }

    /// `securityCheckFailed` for a fetch refused to protect the user (an unsafe destination, a redirect); `failed`
    /// for the network, a status, a content type or a size, where trying again may help.
    public var category: FailureCategory {
        code == .unsafeDestination || code == .redirectRefused ? .securityCheckFailed : .failed
    }

    /// Whether the request never got an answer (DNS, connection, timeout), so that the reason already says what to
    /// do.
    package var isNetworkFailure: Bool { code == .networkFailure }

    /// Whether both errors are the same failure, ignoring the details.
    @available(*, deprecated, message: "Compare codes instead: error.code == .name")
    public func hasSameCode(as other: FetchError) -> Bool { code == other.code }

    /// A sentence or two for people: what happened and what to do.
    public var description: String {
        let text =
            switch code {
            case .unsafeDestination: "Refused to connect: \(reason)."
            case .redirectRefused:
                "Refused a redirect: \(reason). Identity and metadata requests never follow redirects."
            case .unexpectedStatus: "The server gave an unexpected answer: \(reason)."
            case .unexpectedContentType: "The server did not answer with JSON: \(reason)."
            case .responseTooLarge: "The server's answer is too large: \(reason)."
            case .networkFailure: Sentence.ended(reason)
            }
        return text + ServerErrorBody.sentence(error: serverError, description: serverErrorDescription)
    }
}

extension FetchError {
    /// A URL was refused before any request: its scheme, or a host that is or resolves to a non-public address.
    public static func unsafeDestination(_ reason: String) -> FetchError {
        FetchError(.unsafeDestination, reason)
    }

    /// A URL on this machine (`http`, or a loopback address) was refused because loopback is not allowed.
    static func loopbackRefused(_ reason: String) -> FetchError {
        FetchError(.unsafeDestination, reason, remedy: .allowLoopbackServer)
    }

    /// The server answered with a redirect, which identity and metadata fetches never follow.
    public static func redirectRefused(url: URL, status: Int, location: String?) -> FetchError {
        let target = location.map { "to \($0)" } ?? "without a Location"
        return FetchError(.redirectRefused, "\(url) redirected \(target)", status: status)
    }

    /// The server answered with a status other than the one the spec requires.
    public static func unexpectedStatus(
        url: URL,
        status: Int,
        expected: String,
        serverError: String? = nil,
        serverErrorDescription: String? = nil
    ) -> FetchError {
        // "expected exactly 200" explains a refused 2xx; after a 4xx or 5xx it would only be noise.
        let refusedSuccess = (200..<300).contains(status) ? ", expected \(expected)" : ""
        return FetchError(
            .unexpectedStatus,
            "\(url) answered HTTP \(status)\(refusedSuccess)",
            status: status,
            serverError: serverError,
            serverErrorDescription: serverErrorDescription
        )
    }

    /// The server's answer is not JSON where the spec requires JSON.
    public static func unexpectedContentType(url: URL, contentType: String?) -> FetchError {
        let type = contentType.map { "“\($0)”" } ?? "no Content-Type"
        return FetchError(.unexpectedContentType, "\(url) answered with \(type)")
    }

    /// The server's answer is larger than the fetcher accepts.
    public static func responseTooLarge(url: URL, limit: Int) -> FetchError {
        FetchError(.responseTooLarge, "\(url) sent more than \(limit) bytes")
    }

    /// The request could not be sent or its answer not read (DNS, connection, timeout); `reason` is whole sentences
    /// that say what to do, such as a ``TransportError``'s description.
    public static func networkFailure(_ reason: String) -> FetchError {
        FetchError(.networkFailure, reason)
    }

    /// The host name did not resolve to an address; `detail` is the resolver's own words.
    static func cannotResolve(_ host: String, _ detail: String) -> FetchError {
        networkFailure("The name \(host) could not be resolved (\(detail)) — check the address and the network")
    }
}

extension FetchError {
    /// Where the failure lies: the server fetched from, or the network to it: its address, its redirect, its answer.
    public var origin: FailureOrigin { .upstream }
}
