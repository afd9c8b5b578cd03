import Foundation
import OAuthLoopbackListener
import OAuthSessionManager

/// Waits for the authorization server's redirect after the URL was printed, on the loopback listener or pasted.
///
/// When no browser was opened here (`--no-browser`, or the opener failed), the redirect address the user pastes on
/// standard input is taken too, since a browser on another machine cannot reach `127.0.0.1`. The first to arrive
/// wins and the other wait is cancelled.
///
/// A pasted line goes through the listener's own checks (``LoopbackCallbackListener/submit(pasted:)``): a line that
/// is not an address, or an address that is not this redirect URI, gets a message and the wait goes on; an address
/// with another sign-in's `state` ends the sign-in as a failed security check. At end of input the listener still
/// waits. What the user pastes is never printed, and a terminal does not echo it.
struct RedirectWait: Sendable {
    let listener: LoopbackCallbackListener
    let state: String
    let timeout: Int
    /// The opener's launch, or `nil` with `--no-browser`.
    let launch: BrowserOpener.Launch?

    /// Returns the redirect URL to complete the sign-in with.
    ///
    /// - Throws: `OAuthError` when the wait times out or a pasted address belongs to another sign-in;
    ///   `CancellationError` on Ctrl-C.
    func callback() async throws -> URL {
        let browser: BrowserProcess?
        switch launch {
        case .started(let started): browser = started
        case .failed(let reason):
            Output.message("Could not open a browser: \(reason). Open the URL above yourself.")
            browser = nil
        case nil: browser = nil
        }
        let pasteFromStart = browser == nil
        if pasteFromStart {
            TerminalEcho.hide()  // Before the prompt, so nothing pasted after it is echoed.
            Output.message(pastePrompt)
        }
        let deadline = Date().addingTimeInterval(Double(timeout))
        let line = WaitingLine.onTerminal(waitingFor: pasteFromStart ? "the redirect" : "the browser", until: deadline)
        if line == nil {
            Output.message("Waiting for \(pasteFromStart ? "the redirect" : "the browser")… press Ctrl-C to cancel.")
        }
        defer {
            line?.clear()
            TerminalEcho.restore()
        }
        let say: @Sendable (String) -> Void = { text in
            if let line { line.message(text) } else { Output.message(text) }
        }
        return try await withThrowingTaskGroup(of: URL?.self) { group in
            group.addTask { [listener, state, timeout] in
                try await listener.waitForCallback(timeout: .seconds(timeout), expectedState: state)
            }
            group.addTask { [browser, pastePrompt] in
                if !pasteFromStart {
                    guard let failure = await browser?.failure() else { return nil }
                    TerminalEcho.hide()
                    say("Could not open a browser: \(failure). Open the URL above yourself.\n" + pastePrompt)
                }
                try await readPasted(say: say)
                return nil
            }
            if let line {
                group.addTask {
                    await line.run()
                    return nil
                }
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let url = next { return url }
            }
            throw CancellationError()
        }
    }

    /// What to do when the browser cannot reach this machine.
    private var pastePrompt: String {
        let hidden = isatty(STDIN_FILENO) == 1 ? " (it is not shown)" : ""
        return "After you approve, the browser goes to \(listener.redirectURI.absoluteString)?…; if it runs on "
            + "another machine, that page cannot be reached: copy its full address from the address bar, paste it "
            + "here\(hidden) and press Enter."
    }

    /// Hands each pasted line to the listener until one is accepted or input ends.
    private func readPasted(say: @Sendable (String) -> Void) async throws {
        let redirect = listener.redirectURI.absoluteString
        let lines = StandardInputLines.shared
        let terminal = isatty(STDIN_FILENO) == 1
        for await text in lines {
            let received = text.trimmingCharacters(in: .whitespacesAndNewlines).count
            // A terminal does not echo the paste: say that it arrived, and how much of it.
            if terminal, received > 0 { say("Got \(received) characters; checking…") }
            switch listener.submit(pasted: text) {
            case .accepted, .finished: return
            case .blank: continue
            case .notAnAddress:
                say(
                    "That is not a web address. Paste the full address of the page the browser shows after you "
                        + "approve; it starts with \(redirect)?"
                )
            case .otherAddress:
                say(
                    "That address is not this sign-in's redirect, which starts with \(redirect)?. Paste the address "
                        + "of the page the browser shows after you approve, or press Ctrl-C to cancel."
                )
            case .otherSignIn:
                throw OAuthError.invalidCallback(
                    "the pasted address belongs to another sign-in (its state is not this one's)"
                )
            }
        }
    }
}
