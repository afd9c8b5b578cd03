public import Foundation
import WireFormat

/// The query of the redirect back to the client (RFC 6749 §4.1.2, RFC 9207).
public struct CallbackParameters: Sendable, Hashable {
    /// `state`.
    public var state: String?
    /// `iss` (RFC 9207).
    public var issuer: String?
    /// `code`, on success.
    public var code: String?
    /// `error`, on failure.
    public var error: String?
    /// `error_description`, on failure.
    public var errorDescription: String?

    /// Reads the parameters from the callback URL's query; repeated parameters are refused.
    public init(callbackURL: URL) throws {
        let query = URLComponents(url: callbackURL, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        var values: [String: String] = [:]
        let pairs: [(String, String)]
        do {
            pairs = try FormEncoding.parsePairs(query)
        } catch {
            throw OAuthError.invalidCallback("the query cannot be read: \(error.reason)")
        }
        for (name, value) in pairs {
            guard values.updateValue(value, forKey: name) == nil else {
                throw OAuthError.invalidCallback("the parameter \(name) appears more than once")
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

    /// Creates parameters directly.
    public init(
        state: String?,
        issuer: String?,
        code: String?,
        error: String? = nil,
        errorDescription: String? = nil
    ) {
        self.state = state
        self.issuer = issuer
        self.code = code
        self.error = error
        self.errorDescription = errorDescription
    }

    /// Checks the parameters against the pending sign-in found by their `state` (RFC 6749 §4.1.2, RFC 9207 §2).
    ///
    /// `iss` must be present and identical to the issuer, with no `error` and a `code`. Pure: the caller has
    /// already consumed the state.
    /// - Returns: the authorization code.
    func validatedCode(expectedIssuer: String) throws -> String {
        guard let issuer else { throw OAuthError.issuerMismatch("the callback has no iss parameter") }
        guard issuer == expectedIssuer else {
            throw OAuthError.issuerMismatch("the callback's iss is \(issuer), expected \(expectedIssuer)")
        }
        if let error {
            throw OAuthError.authorizationFailed(serverError: error, description: errorDescription)
        }
        guard let code, !code.isEmpty else { throw OAuthError.invalidCallback("the callback has no code") }
        return code
    }
}
