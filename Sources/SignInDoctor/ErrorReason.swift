import ATProtoIdentity
import ATProtoPermissions
import ATProtoSyntax
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
}
