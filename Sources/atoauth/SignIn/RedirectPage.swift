import Foundation
import OAuthLoopbackListener

/// A confidential client's own redirect page (`accounts add --client-key`): a page that does nothing with the code
/// but show its address, which the user pastes here, since no listener of this machine receives it.
///
/// A pasted address must be that redirect URI (scheme, host, port and path, no user info) with exactly this
/// sign-in's `state` (RFC 6749 §4.1.2, §10.12), as the loopback listener checks a pasted address of its own.
struct RedirectPage: Sendable {
    let redirectURI: URL
    let state: String

    /// What a pasted line is, and the redirect to complete the sign-in with when it is this sign-in's.
    ///
    /// Surrounding white space and a terminal's bracketed-paste markers are ignored; the pasted text is never logged.
    func check(pasted text: String) -> (PastedRedirect, URL?) {
        let cleaned = LoopbackCallbackListener.cleaned(text)
        guard !cleaned.isEmpty else { return (.blank, nil) }
        guard cleaned.utf8.count <= LoopbackCallbackListener.maximumPastedLength,
            !cleaned.contains(where: \.isWhitespace), let pasted = URLComponents(string: cleaned),
            pasted.scheme != nil, let host = pasted.host, !host.isEmpty
        else { return (.notAnAddress, nil) }
        let expected = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false)
        guard pasted.scheme?.lowercased() == expected?.scheme?.lowercased(),
            host.lowercased() == expected?.host?.lowercased(), pasted.port == expected?.port,
            pasted.percentEncodedPath == expected?.percentEncodedPath,
            pasted.percentEncodedUser == nil, pasted.percentEncodedPassword == nil
        else { return (.otherAddress, nil) }
        let states = (pasted.queryItems ?? []).filter { $0.name == "state" }.map(\.value)
        guard states == [state], let url = pasted.url else { return (.otherSignIn, nil) }
        return (.accepted, url)
    }
}
