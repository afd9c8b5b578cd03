import ATOAuth
import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import Synchronization
import WireFormat

/// The service's routes: its client metadata document, its page, the three steps of a sign-in (start, the callback,
/// sign out), and the page an operator's sign-in from a terminal ends on.
///
/// Sessions, DPoP keys and the client's signing keys live in the store, sealed; which browser is signed in as which
/// account lives in memory only, as a random cookie value mapped to a DID.
struct Site: Sendable {
    /// The cookie naming a browser's session here.
    static let sessionCookie = "atoauth_example_session"
    /// The cookie that ties a started sign-in to the browser that started it.
    static let stateCookie = "atoauth_example_state"

    /// Sign-in, sessions and keys.
    let accounts: AccountManager
    /// The service's origin.
    let origin: PublicOrigin
    /// Which browser is signed in as which account.
    let browsers = BrowserSessions()

    /// A site over `accounts`, served at `origin`.
    init(accounts: AccountManager, origin: PublicOrigin) {
        self.accounts = accounts
        self.origin = origin
    }

    /// The routes.
    func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.get("/client-metadata.json") { _, _ in try await clientMetadata() }
        router.get("/") { request, _ in await home(request) }
        router.post("/login") { request, _ in await login(request) }
        router.get("/callback") { request, _ in await callback(request) }
        router.post("/logout") { request, _ in await logout(request) }
        router.get("/copy-address") { _, _ in copyAddress() }
        return router
    }

    /// `GET /client-metadata.json`: the document at the `client_id` URL, listing every key of the store's set (the
    /// current one, a next one being published, retiring ones still bound to sessions).
    func clientMetadata() async throws -> Response {
        let keys = try await accounts.clientKeys().map(\.publicJWK)
        let json = try ClientDocument(origin: origin.text, keys: keys).json()
        return Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: json))
        )
    }

    /// `GET /`: the sign-in form, or who the browser is signed in as and one XRPC call made as that account.
    func home(_ request: Request) async -> Response {
        guard let id = request.cookies[Self.sessionCookie]?.value, let did = await browsers.account(id) else {
            return Pages.response(Pages.signedOut())
        }
        do {
            // The account's connection sends each request with a fresh DPoP proof and its access token, and
            // refreshes the session first when it is about to expire, signing a new client assertion.
            let connection = try await accounts.restore(.did(did))
            let answer = try await accounts.client(for: .did(did)).getSession()
            return Pages.response(Pages.signedIn(as: connection.displayName, answer: answer))
        } catch let error as any CategorizedError where error.category == .signInNeeded {
            // The session ended: signed out elsewhere, or the server would not refresh it.
            _ = await browsers.end(id)
            var response = Pages.response(Pages.signedOut(notice: "\(error.description) Sign in again."))
            response.setCookie(cookie(Self.sessionCookie, "", maxAge: 0))
            return response
        } catch {
            return failure("The call failed", error)
        }
    }

    /// `POST /login` with `handle=…`: starts a sign-in and sends the browser to the authorization server.
    ///
    /// `hostedClient` fetches this service's own client metadata document and checks that it publishes the store's
    /// signing key; `authorize` resolves the handle to its DID, PDS and authorization server, and sends the pushed
    /// authorization request (PAR) signed with that key. The answer is the authorization URL, where the user
    /// approves; its `state` goes in a cookie, so the callback is accepted only in the browser that started it.
    func login(_ request: Request) async -> Response {
        var request = request
        let handle: String
        do {
            let body = try await request.collectBody(upTo: 4096)
            handle = try FormEncoding.parse(String(buffer: body))["handle"] ?? ""
        } catch {
            return Pages.response(Pages.error("Sign-in failed", "The form could not be read."), status: .badRequest)
        }
        let input = handle.trimmingCharacters(in: .whitespaces)
        guard !input.isEmpty else {
            return Pages.response(Pages.signedOut(notice: "Type your handle to sign in."), status: .badRequest)
        }
        do {
            let client = try await accounts.hostedClient(
                clientID: try address(ClientDocument.clientID(origin: origin.text)),
                redirectURI: try address(ClientDocument.redirectURI(origin: origin.text))
            )
            let authorization = try await accounts.authorize(input, client: client)
            var response = Pages.redirect(to: authorization.url.absoluteString)
            response.setCookie(cookie(Self.stateCookie, authorization.state, maxAge: 600))
            return response
        } catch {
            return failure("Sign-in failed", error)
        }
    }

    /// `GET /callback?…`: the authorization server sends the browser back here with a code (or an error).
    ///
    /// `callback` checks `state` and `iss`, exchanges the code for tokens (the token request signed with the same
    /// key as the PAR, and DPoP-bound), checks that the tokens are for the account that was asked for, and stores
    /// the session. The browser then gets a cookie naming that account.
    func callback(_ request: Request) async -> Response {
        do {
            // The redirect URI exactly as registered, with the query the browser brought.
            let url = try address(ClientDocument.redirectURI(origin: origin.text) + "?" + (request.uri.query ?? ""))
            let state = try CallbackParameters(callbackURL: url).state
            guard let state, request.cookies[Self.stateCookie]?.value == state else {
                return Pages.response(
                    Pages.error("Sign-in failed", "This sign-in was not started in this browser; start it again."),
                    status: .badRequest
                )
            }
            let signIn = try await accounts.callback(url)
            let id = await browsers.start(for: signIn.account.did)
            var response = Pages.redirect(to: "/")
            response.setCookie(cookie(Self.sessionCookie, id))
            response.setCookie(cookie(Self.stateCookie, "", maxAge: 0))
            return response
        } catch {
            return failure("Sign-in failed", error)
        }
    }

    /// `POST /logout`: forgets the browser's session and, when no other browser uses the account, signs it out:
    /// its tokens are revoked at the authorization server and its session and DPoP key deleted.
    func logout(_ request: Request) async -> Response {
        var response = Pages.redirect(to: "/")
        response.setCookie(cookie(Self.sessionCookie, "", maxAge: 0))
        guard let id = request.cookies[Self.sessionCookie]?.value, let ended = await browsers.end(id) else {
            return response
        }
        if !ended.stillInUse {
            _ = try? await accounts.remove(.did(ended.did))
        }
        return response
    }

    /// `GET /copy-address?…`: the redirect of an operator's sign-in from a terminal (`atoauth accounts add <handle>
    /// --client-id <origin>/client-metadata.json --client-key <kid> --redirect-uri <origin>/copy-address`), whose
    /// code is atoauth's to spend, not this service's.
    ///
    /// The request is not read at all: the answer is a static page whose script shows its own address for the
    /// operator to copy and paste into atoauth. `/callback`, by contrast, is for the service's web users and spends the
    /// code itself.
    func copyAddress() -> Response {
        Pages.copyAddressResponse()
    }

    /// A cookie only this site's pages send back: not readable by scripts, not sent with other sites' requests,
    /// and only over https when the service is served over https.
    private func cookie(_ name: String, _ value: String, maxAge: Int? = nil) -> Cookie {
        Cookie(
            name: name,
            value: value,
            maxAge: maxAge,
            path: "/",
            secure: origin.text.hasPrefix("https:"),
            httpOnly: true,
            sameSite: .lax
        )
    }

    /// An error page: `400` for what the user, the input or a check refused, `502` when a server or the store failed.
    private func failure(_ title: String, _ error: any Error) -> Response {
        guard let error = error as? any CategorizedError else {
            return Pages.response(Pages.error(title, "The operation failed: \(error)"), status: .badGateway)
        }
        let status: HTTPResponse.Status = error.category == .failed ? .badGateway : .badRequest
        return Pages.response(Pages.error(title, error.description), status: status)
    }

    /// The URL `text` spells.
    private func address(_ text: String) throws -> URL {
        guard let url = URL(string: text) else { throw InvalidAddress(text: text) }
        return url
    }
}

/// The service's origin: the one `--public-url` gives, or `http://127.0.0.1:<port>` once the port is bound.
final class PublicOrigin: Sendable {
    private let value: Mutex<String?>

    /// An origin given with `--public-url`, or `nil` until ``bind(port:)``.
    init(_ configured: String?) {
        value = Mutex(configured)
    }

    /// Takes the bound port, unless `--public-url` gave the origin.
    func bind(port: Int) {
        value.withLock { origin in
            if origin == nil { origin = "http://127.0.0.1:\(port)" }
        }
    }

    /// The origin, without a trailing slash.
    var text: String { value.withLock { $0 } ?? "http://127.0.0.1" }
}

/// Which browser is signed in as which account: 32 random bytes (base64url) in a cookie, mapped to a DID, in memory
/// only. A restart signs every browser out here; the accounts' sessions stay in the store.
actor BrowserSessions {
    private var accounts: [String: DID] = [:]

    /// Starts a browser session for `did`; returns the cookie value that names it.
    func start(for did: DID) -> String {
        let id = Base64URL.encode(SystemRandomSource().bytes(count: 32))
        accounts[id] = did
        return id
    }

    /// The account a cookie value names, if any.
    func account(_ id: String) -> DID? {
        accounts[id]
    }

    /// Ends a browser session: its account, and whether another browser is still signed in as it.
    func end(_ id: String) -> (did: DID, stillInUse: Bool)? {
        guard let did = accounts.removeValue(forKey: id) else { return nil }
        return (did, accounts.values.contains(did))
    }
}

/// A URL built from the origin could not be read.
private struct InvalidAddress: Error, CustomStringConvertible {
    var text: String
    var description: String { "“\(text)” is not a URL" }
}
