import Foundation
import OAuthLoopbackListener
import OAuthSessionManager

/// Waits for the authorization server's redirect after the URL was printed: on the loopback listener or pasted, or,
/// for a confidential client's own redirect page that no listener here receives, pasted only.
///
/// When no browser was opened here (`--no-browser`, or the opener failed), the redirect address the user pastes on
/// standard input is taken too, since a browser on another machine cannot reach `127.0.0.1`. The first to arrive
/// wins and the other wait is cancelled. A client's own page (``RedirectPage``) is always pasted.
///
/// One loop reads what is pasted, for both: a terminal does not echo it, so each line is acknowledged with its
/// length (`Got 172 characters; checking…`) above the waiting line. A line that is not an address, or an address
/// that is not this redirect URI, gets a message and the wait goes on; an address with another sign-in's `state`
/// ends the sign-in as a failed security check. At end of input the listener still waits. What the user pastes is
/// never printed.
struct RedirectWait: Sendable {
    /// Where the redirect comes back.
    enum Destination: Sendable {
        /// The loopback listener, which also takes a pasted address (``LoopbackCallbackListener/submit(pasted:)``).
        case listener(LoopbackCallbackListener)
        /// The client's own redirect page, whose address is pasted.
        case page(RedirectPage)
    }

    let destination: Destination
    let state: String
    let timeout: Int
    /// The opener's launch, or `nil` with `--no-browser`.
    let launch: BrowserOpener.Launch?

    /// Returns the redirect URL to complete the sign-in with.
    ///
    /// - Throws: `SessionError` when a pasted address belongs to another sign-in, an error saying the sign-in timed
    ///   out (with what gives it more time), `CancellationError` on Ctrl-C.
    func callback() async throws -> URL {
        let browser: BrowserProcess?
        switch launch {
        case .started(let started): browser = started
        case .failed(let reason):
            Output.message("Could not open a browser: \(reason). Open the URL above yourself.")
            browser = nil
        case nil: browser = nil
        }
        let pastedOnly = if case .page = destination { true } else { false }
        let pasteFromStart = browser == nil || pastedOnly
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
            group.addTask { [destination, state, timeout] in
                guard case .listener(let listener) = destination else {
                    try await Task.sleep(until: ContinuousClock.now + .seconds(timeout))
                    throw timedOut
                }
                do {
                    return try await listener.waitForCallback(timeout: .seconds(timeout), expectedState: state)
                } catch let error as LoopbackListenerError where error.code == .timedOut {
                    throw timedOut
                }
            }
            group.addTask { [browser, pastePrompt] in
                if let browser, !pasteFromStart {
                    guard let failure = await browser.failure() else { return nil }
                    TerminalEcho.hide()
                    say("Could not open a browser: \(failure). Open the URL above yourself.\n" + pastePrompt)
                }
                return try await readPasted(say: say)
            }
            if let browser, pasteFromStart {
                group.addTask {
                    if let failure = await browser.failure() {
                        say("Could not open a browser: \(failure). Open the URL above yourself.")
                    }
                    return nil
                }
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

    /// The redirect URI the browser goes to after the approval.
    private var redirectURI: URL {
        switch destination {
        case .listener(let listener): listener.redirectURI
        case .page(let page): page.redirectURI
        }
    }

    /// What to do when the browser cannot reach this machine, or ends on the client's own page.
    private var pastePrompt: String {
        let hidden = isatty(STDIN_FILENO) == 1 ? " (it is not shown)" : ""
        guard case .listener = destination else {
            return "After you approve, the browser shows \(redirectURI.absoluteString)?…: copy its full address "
                + "from the address bar, paste it here\(hidden) and press Enter."
        }
        return "After you approve, the browser goes to \(redirectURI.absoluteString)?…; if it runs on "
            + "another machine, that page cannot be reached: copy its full address from the address bar, paste it "
            + "here\(hidden) and press Enter."
    }

    /// The sign-in's time-out: nobody approved, or the address was not pasted, before `--timeout`.
    private var timedOut: CLIFailure {
        let what =
            if case .listener = destination { "no redirect arrived" } else { "no address was pasted" }
        let seconds = "\(timeout) second\(timeout == 1 ? "" : "s")"
        return CLIFailure(
            status: .failed,
            message: "Sign-in timed out: \(what) within \(seconds). Start it again and approve in the browser; "
                + "to wait longer, give --timeout SECONDS (default \(BrowserSignInOptions.defaultTimeout))."
        )
    }

    /// What a pasted line is: the listener's verdict (the listener then hands the redirect to its wait), or the
    /// client page's verdict with the redirect itself.
    private func submit(_ text: String) -> (PastedRedirect, URL?) {
        switch destination {
        case .listener(let listener): (listener.submit(pasted: text), nil)
        case .page(let page): page.check(pasted: text)
        }
    }

    /// Reads each pasted line until one is this sign-in's redirect: returns it when no listener takes it, else
    /// `nil` once the listener has it, or at the end of input, when the listener goes on waiting.
    private func readPasted(say: @Sendable (String) -> Void) async throws -> URL? {
        let redirect = redirectURI.absoluteString
        let terminal = isatty(STDIN_FILENO) == 1
        for await text in StandardInputLines.shared {
            let received = text.trimmingCharacters(in: .whitespacesAndNewlines).count
            // A terminal does not echo the paste: say that it arrived, and how much of it.
            if terminal, received > 0 { say("Got \(received) characters; checking…") }
            switch submit(text) {
            case (.accepted, let url): return url
            case (.finished, _): return nil
            case (.blank, _): continue
            case (.notAnAddress, _):
                say(
                    "That is not a web address. Paste the full address of the page the browser shows after you "
                        + "approve; it starts with \(redirect)?"
                )
            case (.otherAddress, _):
                say(
                    "That address is not this sign-in's redirect, which starts with \(redirect)?. Paste the address "
                        + "of the page the browser shows after you approve, or press Ctrl-C to cancel."
                )
            case (.otherSignIn, _):
                throw SessionError.invalidCallback(
                    "the pasted address belongs to another sign-in (its state is not this one's)"
                )
            }
        }
        try Task.checkCancellation()
        guard case .listener = destination else {
            // Nothing failed a check: there is no more input to read the address from (usage, not exit 4).
            throw CLIFailure(
                status: .usage,
                message: "Standard input ended before the redirect's address was pasted. Run the sign-in where you can "
                    + "paste the address of the page the browser shows after you approve, or give that address on "
                    + "standard input."
            )
        }
        return nil
    }
}
