import DPoPRequestExecutor
package import Foundation
import WireFormat

/// The query of the redirect back to the client (RFC 6749 §4.1.2, RFC 9207).
package struct CallbackParameters: Sendable, Hashable {
    /// `state`.
    package var state: String?
    /// `iss` (RFC 9207).
    package var issuer: String?
    /// `code`, on success.
    package var code: String?
    /// `error`, on failure.
    package var error: String?
    /// `error_description`, on failure.
    package var errorDescription: String?
}

extension CallbackParameters {
    /// Reads the parameters from the callback URL's query; repeated parameters are refused.
    package init(callbackURL: URL) throws {
        let query = URLComponents(url: callbackURL, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        var values: [String: String] = [:]
        let pairs: [(String, String)]
        do {
            pairs = try FormEncoding.parsePairs(query)
        } catch {
            throw SessionError.invalidCallback("the query cannot be read: \(error.reason)")
        }
        for (name, value) in pairs {
            guard values.updateValue(value, forKey: name) == nil else {
                throw SessionError.invalidCallback("the parameter \(name) appears more than once")
            }
        }
        self.init(
            state: values["state"],
            issuer: values["iss"],
            code: values["code"],
            error: values["error"],
            errorDescription: values["error_description"]
        )
    }

    /// Checks the parameters against the pending sign-in found by their `state` (RFC 6749 §4.1.2, RFC 9207 §2).
    ///
    /// `iss` must be present and identical to the issuer, with no `error` and a `code`. Pure: the caller has
    /// already consumed the state.
    /// - Returns: the authorization code.
    func validatedCode(expectedIssuer: String) throws -> String {
        guard let issuer else { throw SessionError.issuerMismatch("the callback has no iss parameter") }
        guard issuer == expectedIssuer else {
            throw SessionError.issuerMismatch("the callback's iss is \(issuer), expected \(expectedIssuer)")
        }
        if let error {
            throw SessionError.authorizationFailed(serverError: error, description: errorDescription)
        }
        guard let code, !code.isEmpty else { throw SessionError.invalidCallback("the callback has no code") }
        return code
    }
}

extension CallbackParameters {
    /// Whether `callbackURL` came to `redirectURI`: for http(s), the same URL without query and fragment once both
    /// are normalized as a DPoP `htu` is (RFC 3986 §6); for a native app's private-use scheme, which has no host
    /// (RFC 8252 §7.1), the same scheme, case aside, and path.
    ///
    /// A code is spent only at the endpoint its sign-in registered, so a service that takes sign-ins at two
    /// addresses (a browser callback, and a page whose address an operator pastes into a terminal) cannot be made to
    /// complete one sign-in at the other's endpoint.
    package static func arrived(_ callbackURL: URL, at redirectURI: URL) -> Bool {
        func endpoint(_ url: URL) -> String? {
            if let htu = try? DPoPTarget.htu(for: url) { return htu }
            guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false), parts.host == nil,
                let scheme = parts.scheme?.lowercased()
            else { return nil }
            return scheme + ":" + parts.percentEncodedPath
        }
        guard let arrived = endpoint(callbackURL) else { return false }
        return arrived == endpoint(redirectURI)
    }
}
