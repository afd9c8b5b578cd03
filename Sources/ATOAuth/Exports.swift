// `import ATOAuth` is the one import an app needs to sign people in, keep their accounts, call XRPC and handle
// failures, as Hummingbird's `Exports.swift` does for a web app. A program that wants one part (the syntax types,
// permissions, the keystore, the testing kit) can still depend on that product alone.
//
// Whole modules, the ones an app names:
// - `AccountManager`, the front door: sign-in, accounts, the active account, routing; `AccountError`.
// - `ATClient`: XRPC as an account; `XRPCError`, `XRPCRequestError`, `MissingPermissionError`.
// - `ATProtoSyntax` (`ATIdentifier`, `DID`, `Handle`, `NSID`; `SyntaxError`) and `ATProtoPermissions` (scopes: what to
//   ask for, what a grant allows; `PermissionError`).
// - `OAuthSessionManager`, whose public types are the ones the front door hands out: `Session`, `Credential`,
//   `OAuthClient`, `SessionEvent`, `Revocation`, `SessionError`.
// - `Failures`, the vocabulary every public error speaks: `FailureCategory`, `FailureOrigin`, `FailureCode` (the code
//   of an error of one kind; the others have their own `Code` enum), `Remedy`, `CategorizedError`.
//
// From the layers below, only what an app constructs, passes or catches: the keystores; the HTTP transport; the
// loopback redirect listener (RFC 8252 §7.3) and a pasted redirect; `IdentityResolver` and swift-log's `Logger` for
// `AccountManager.Configuration`; and their errors. Not HTTPTransport's value types (`HTTPResponse`, `HTTPMethod`,
// `HTTPHeaders`, …): their members reach an app through the XRPC types that carry them, and their names would clash
// with a web framework's own (Hummingbird re-exports swift-http-types' `HTTPResponse`); a program that names them
// imports `HTTPTransport`.

@_exported import ATClient
@_exported import ATProtoPermissions
@_exported import ATProtoSyntax
@_exported import AccountManager
@_exported import Failures
@_exported import OAuthMetadata
@_exported import OAuthSessionManager

@_exported import struct ATProtoIdentity.IdentityError
@_exported import struct ATProtoIdentity.IdentityResolver
@_exported import struct DPoPRequestExecutor.DPoPError
@_exported import class HTTPTransport.AsyncHTTPClientTransport
@_exported import struct HTTPTransport.FetchError
@_exported import protocol HTTPTransport.HTTPTransport
@_exported import struct HTTPTransport.TransportError
@_exported import class Keystore.EncryptedFileKeystore
@_exported import class Keystore.InMemoryKeystore
@_exported import protocol Keystore.Keystore
@_exported import struct Keystore.KeystoreError
@_exported import struct Logging.Logger
@_exported import struct OAuthLoopbackListener.CallbackPage
@_exported import class OAuthLoopbackListener.LoopbackCallbackListener
@_exported import struct OAuthLoopbackListener.LoopbackListenerError
@_exported import enum OAuthLoopbackListener.PastedRedirect

#if canImport(Security)
@_exported import class Keystore.KeychainKeystore
#endif
