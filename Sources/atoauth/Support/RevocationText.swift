import OAuthSessionManager

/// How a revocation's outcome is named in output: `revoked`, `not supported by the server`, or `failed`.
enum RevocationText {
    static func word(_ result: Revocation) -> String {
        switch result {
        case .revoked: "revoked"
        case .notSupported: "not supported by the server"
        case .failed: "failed"
        }
    }
}
