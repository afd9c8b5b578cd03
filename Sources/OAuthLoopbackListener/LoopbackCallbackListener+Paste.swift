import Foundation

/// What ``LoopbackCallbackListener/submit(pasted:)`` made of a line the user pasted.
public enum PastedRedirect: Sendable, Hashable {
    /// It is this sign-in's redirect: handed to ``LoopbackCallbackListener/waitForCallback(timeout:expectedState:)``.
    case accepted
    /// The line is empty.
    case blank
    /// The line is not a web address.
    case notAnAddress
    /// A web address, but not this listener's redirect URI (another scheme, host, port or path, or user info).
    case otherAddress
    /// This listener's redirect URI, but without the `state` the sign-in under way expects: it belongs to another
    /// sign-in, or was forged (RFC 6749 §10.12).
    case otherSignIn
    /// The sign-in already finished; the address was not used.
    case finished
}

extension LoopbackCallbackListener {
    /// The longest pasted line taken for an address; a redirect with a code, a state and an issuer is far shorter.
    public static let maximumPastedLength = 8_192

    /// Takes the redirect address the user pasted when the browser could not reach this listener (it runs on
    /// another machine), and hands it to the wait when it passes the checks a redirect to the listener passes.
    ///
    /// The address must be `http://` with this listener's host and port (RFC 8252 §7.3), no user info, the callback
    /// path, and, once ``expect(state:)`` was called, exactly that `state`; a fragment is ignored. Whether the
    /// listener's redirect or a pasted one arrives first, the wait returns the first, and the sign-in goes on
    /// through the same `state`, `iss` and `error` checks. The pasted text is never logged.
    ///
    /// - Parameter text: one line as pasted; surrounding white space and a terminal's bracketed-paste markers are
    ///   ignored, and a missing `http://` before `127.0.0.1:` is supplied.
    /// - Returns: whether it was accepted, and if not, why.
    public func submit(pasted text: String) -> PastedRedirect {
        let cleaned = Self.cleaned(text)
        guard !cleaned.isEmpty else { return .blank }
        let withScheme = cleaned.hasPrefix("127.0.0.1:") ? "http://" + cleaned : cleaned
        guard cleaned.utf8.count <= Self.maximumPastedLength, !cleaned.contains(where: \.isWhitespace),
            let components = URLComponents(string: withScheme), let scheme = components.scheme,
            let host = components.percentEncodedHost, !host.isEmpty
        else { return .notAnAddress }
        guard scheme.lowercased() == "http", components.percentEncodedUser == nil,
            components.percentEncodedPassword == nil, let port = components.port
        else { return .otherAddress }
        let hostHeader = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let target = components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        switch gate.decide(method: "GET", target: target, host: hostHeader) {
        case .deliver(let url, _):
            delivery.yield(url)
            return .accepted
        case .refuse(.finished): return .finished
        case .refuse(.foreignState): return .otherSignIn
        case .refuse(.foreignHost), .refuse(.notFound): return .otherAddress
        }
    }

    /// The line without surrounding white space and without bracketed-paste markers (`ESC [200~`, `ESC [201~`).
    package static func cleaned(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}[200~", with: "")
            .replacingOccurrences(of: "\u{1B}[201~", with: "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
