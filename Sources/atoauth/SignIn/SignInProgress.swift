import Foundation
import OAuthSessionManager
import WireFormat

/// The lines a terminal shows while a sign-in gets ready, so a slow server is not mistaken for a hung command.
///
/// They read `Resolving alice.bsky.social…`, `Checking its servers (https://…)…`, `Sending the sign-in request to
/// https://…`. Nothing is shown when standard error is not a terminal: scripts and logs get only the URL and the
/// result.
enum SignInProgress {
    /// Prints each step on stderr when it is a terminal.
    static let onTerminal: @Sendable (SignInStep) -> Void = { step in
        guard isatty(STDERR_FILENO) == 1 else { return }
        Output.message(text(step))
    }

    /// The line for `step`; anything from the network or the user is made safe to print.
    static func text(_ step: SignInStep) -> String {
        switch step {
        case .resolvingAccount(let input): "Resolving \(TerminalText.sanitized(input, limit: 200))…"
        case .checkingServers(let pds): "Checking its servers (\(pds.absoluteString))…"
        case .sendingRequest(let issuer):
            "Sending the sign-in request to \(TerminalText.sanitized(issuer, limit: 200))…"
        }
    }
}
