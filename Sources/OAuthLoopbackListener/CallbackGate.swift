import Foundation
import Synchronization
import WireFormat

/// Decides what the loopback listener does with each request: the pure rules, shared by every connection.
///
/// RFC 8252 §8.3 warns that other local processes can reach a loopback redirect, and RFC 6749 §10.12 makes `state`
/// the defence against a forged redirect. So a callback is delivered only when its `Host` names this listener
/// (`127.0.0.1`, `localhost` or `[::1]` with the bound port; a guard against DNS rebinding) and, once the caller
/// has said which `state` it expects, only when it carries exactly that `state`. A mismatch is answered with an
/// error page and the listener keeps waiting. After the sign-in finished, every request gets a page without any
/// account details.
final class CallbackGate: Sendable {
    /// What to do with one request.
    enum Decision: Equatable, Sendable {
        /// Hand the callback URL to the waiting sign-in, and answer later with its page.
        case deliver(URL, state: String?)
        /// Answer at once with the refusal's status and page.
        case refuse(Refusal)
    }

    /// Why a request is not delivered; each reason has its HTTP status and page.
    enum Refusal: Equatable, Sendable {
        /// The sign-in already finished.
        case finished
        /// The `Host` is not this listener.
        case foreignHost
        /// Not a `GET` of the callback path.
        case notFound
        /// The callback's `state` is missing or is not the one the sign-in under way expects.
        case foreignState

        /// The status to answer with.
        var status: Int {
            switch self {
            case .finished: 410
            case .foreignHost, .foreignState: 400
            case .notFound: 404
            }
        }

        /// The page to answer with.
        var page: CallbackPage {
            switch self {
            case .finished: CallbackGate.finishedPage
            case .foreignHost: .failed("The request is not addressed to this listener.")
            case .notFound: .failed("Nothing here.")
            case .foreignState: CallbackGate.foreignPage
            }
        }
    }

    /// The answer to any request after the sign-in finished: it says nothing about the account.
    static let finishedPage = CallbackPage(
        title: "Sign-in finished",
        message: "This sign-in has already finished. You can close this window."
    )
    /// The answer to a callback that does not belong to the sign-in under way.
    static let foreignPage = CallbackPage.failed("This redirect does not belong to the sign-in under way.")

    private let path: String
    private let port: Int
    private let state = Mutex<(expected: String?, finished: Bool, refusedStates: Int)>((nil, false, 0))
    /// What runs once the expected `state` is known: the delivered callbacks still waiting for their page.
    private let stateWaiters = Mutex<[@Sendable (String) -> Void]>([])

    init(path: String, port: Int) {
        self.path = path
        self.port = port
    }

    /// The `state` the sign-in under way expects, once the caller has said so.
    var expectedState: String? { state.withLock { $0.expected } }

    /// How many callbacks were refused because their `state` belongs to no sign-in under way.
    var refusedStates: Int { state.withLock { $0.refusedStates } }

    /// Counts a callback refused for its `state` after it was delivered (it came before the expected state was
    /// known).
    func noteRefusedState() {
        state.withLock { $0.refusedStates += 1 }
    }

    /// Sets the `state` a callback must carry to be delivered, and tells the callbacks delivered before it.
    func expect(state expected: String) {
        state.withLock { $0.expected = expected }
        let waiters = stateWaiters.withLock { waiters in
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiters { waiter(expected) }
    }

    /// Runs `body` with the expected `state` as soon as it is known.
    func whenStateExpected(_ body: @escaping @Sendable (String) -> Void) {
        let known = stateWaiters.withLock { waiters -> String? in
            if let expected = expectedState { return expected }
            waiters.append(body)
            return nil
        }
        if let known { body(known) }
    }

    /// Records that the sign-in finished: no further callback is delivered.
    func finish() {
        state.withLock { $0.finished = true }
    }

    /// The decision for a request with this method, target (`/path?query`) and `Host` header.
    func decide(method: String, target: String, host: String?) -> Decision {
        let (expected, finished) = state.withLock { ($0.expected, $0.finished) }
        if finished { return .refuse(.finished) }
        guard LoopbackAuthority.names(host, port: port) else { return .refuse(.foreignHost) }
        // Everything before the first `?`: splitting would drop an empty path and read `?/callback?…` as the path.
        let requestPath = target.prefix { $0 != "?" }
        guard method == "GET", requestPath == path, let url = URL(string: "http://127.0.0.1:\(port)\(target)") else {
            return .refuse(.notFound)
        }
        let received = Self.state(in: url)
        if let expected, received != expected {
            state.withLock { $0.refusedStates += 1 }
            return .refuse(.foreignState)
        }
        return .deliver(url, state: received)
    }

    /// The callback's one `state` parameter; `nil` when it has none or several.
    static func state(in url: URL) -> String? {
        let states = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .filter { $0.name == "state" }
            .compactMap(\.value)
        return states?.count == 1 ? states?.first : nil
    }

    /// Whether a delivered callback with `received` state may be shown `page` when the sign-in finishes: only the
    /// callback the sign-in accepted is; any other sees ``foreignPage``.
    func page(_ page: CallbackPage, forState received: String?) -> CallbackPage {
        guard let expected = expectedState, received != expected else { return page }
        return Self.foreignPage
    }
}
