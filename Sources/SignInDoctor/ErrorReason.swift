import ATProtoIdentity
import ATProtoPermissions
import ATProtoSyntax
import Failures
import HTTPTransport
import OAuthMetadata
import OAuthSessionManager

extension SignInDoctor {
    /// The reason an error gives, without its type's name; never a secret, as none of these errors holds one.
    static func reason(of error: any Error) -> String {
        switch error {
        case let error as IdentityError: error.reason
        case let error as FetchError: error.reason
        case let error as SessionError: error.reason
        case let error as MetadataError: error.reason
        case let error as SyntaxError: error.reason
        case let error as PermissionError: error.description
        default: String(describing: error)
        }
    }

    /// The fix for a server on this machine that was refused because loopback is not allowed; `nil` for any other
    /// error.
    static func loopbackFix(_ error: any Error) -> String? {
        guard (error as? any CategorizedError)?.remedy == .allowLoopbackServer else { return nil }
        return "The server is on this machine: for a development server (such as atoauth sandbox), give "
            + "--allow-http-loopback."
    }
}
