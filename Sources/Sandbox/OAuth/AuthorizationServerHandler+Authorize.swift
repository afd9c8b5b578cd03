import Foundation
import WireFormat

extension AuthorizationServerHandler {
    /// `GET /oauth/authorize`: only `client_id` and a pushed `request_uri` (RFC 9126 §4); shows the consent page,
    /// or approves at once in auto-approve mode.
    func authorize(_ request: SandboxRequest) async -> SandboxResponse {
        let parameters: [String: String]
        do {
            parameters = try request.queryParameters()
        } catch {
            return errorPage(request, .invalidRequest, "the query is malformed: \(error.reason)")
        }
        guard let requestURI = parameters["request_uri"] else {
            return errorPage(
                request,
                .parRequired,
                "this server requires pushed authorization requests: POST the parameters to /oauth/par, then open "
                    + "/oauth/authorize?client_id=…&request_uri=…"
            )
        }
        let extra = parameters.keys.filter { $0 != "client_id" && $0 != "request_uri" }.sorted()
        guard extra.isEmpty else {
            return errorPage(
                request,
                .invalidRequest,
                "only client_id and request_uri may be sent to the authorization endpoint, not "
                    + extra.joined(separator: ", ")
            )
        }
        guard let clientID = parameters["client_id"] else {
            return errorPage(request, .invalidRequest, "client_id is required")
        }
        let pushed: PushedAuthorization
        do {
            pushed = try await core.authorizations.takeRequest(requestURI, clientID: clientID, now: core.now())
        } catch {
            return spentRequestPage(request, error)
        }
        let settings = core.configuration
        if pushed.prompt == "create" {
            guard settings.autoApprove else {
                return await interactionPage(pushed) { SignUp.page(request: pushed, csrfToken: $0) }
            }
            let account = SignUp.createAccount(handle: nil, in: core)
            core.monitor.note(request, "signed up \(account.handle) (\(account.did))")
            return await approve(request, pushed, account: account, status: 302)
        }
        if settings.autoApprove {
            guard let account = pushed.loginHintDID.flatMap(settings.account(for:)) ?? settings.accounts.first else {
                return errorPage(request, .invalidRequest, "the sandbox has no accounts to approve with")
            }
            return await approve(request, pushed, account: account, status: 302)
        }
        return await interactionPage(pushed) {
            ConsentPage.page(request: pushed, accounts: settings.accounts, csrfToken: $0)
        }
    }

    /// The page for a `request_uri` that cannot be used, logged with its reason: in plain words for a person who
    /// reloaded or came back to the page (``ConsentPage/spentRequestPage(_:client:detail:)``).
    private func spentRequestPage(
        _ request: SandboxRequest,
        _ refusal: AuthorizationStore.RequestURIRefusal
    ) -> SandboxResponse {
        let reason: SandboxRejectionReason
        let detail: String
        switch refusal.reason {
        case .clientMismatch:
            (reason, detail) = (.invalidClient, "the request_uri was pushed by another client")
        case .expired:
            (reason, detail) = (.invalidRequestURI, "the request_uri has expired; push a new request")
        case .used:
            (reason, detail) = (.invalidRequestURI, "the request_uri was already used")
        case .unknown:
            (reason, detail) = (.invalidRequestURI, "the request_uri is unknown or was already used")
        }
        core.monitor.rejected(request, reason, detail)
        return .html(400, ConsentPage.spentRequestPage(refusal.reason, client: refusal.client, detail: detail))
    }

    /// The page of a new interaction with the user, `page` given its CSRF token, which is remembered for `pushed`.
    ///
    /// The page shows the client's logo: its `Content-Security-Policy` also lets images load from the logo's origin,
    /// and from nowhere else.
    private func interactionPage(
        _ pushed: PushedAuthorization,
        _ page: (String) -> String
    ) async -> SandboxResponse {
        let csrfToken = core.randomToken()
        await core.authorizations.openInteraction(pushed, csrfToken: csrfToken)
        return .html(200, page(csrfToken), imageOrigin: pushed.clientPresentation.logoOrigin)
    }

    /// `POST /oauth/authorize`: the consent form; approve issues a code, deny redirects with `access_denied`.
    func consent(_ request: SandboxRequest) async -> SandboxResponse {
        let form: [String: String]
        do {
            form = try formParameters(request)
        } catch {
            core.monitor.rejected(request, error.reason, error.explanation)
            return .html(400, ConsentPage.errorPage("The form could not be read."))
        }
        if let origin = request.header("origin"), origin != "null", origin != issuer {
            return errorPage(request, .csrfMismatch, "the form was posted from another origin (\(origin))")
        }
        let pushed: PushedAuthorization
        let csrfToken = form["csrf_token"] ?? ""
        do {
            pushed = try await core.authorizations.takeInteraction(csrfToken: csrfToken, now: core.now())
        } catch .expired {
            return errorPage(request, .invalidRequestURI, "this authorization request has expired; start again")
        } catch {
            return errorPage(request, .csrfMismatch, "the form's CSRF token is unknown or was already used")
        }
        switch form["decision"] {
        case "create" where pushed.prompt == "create":
            guard let handle = form["handle"]?.lowercased(), SignUp.isAvailable(handle, in: core) else {
                return await refuseChoice(
                    request,
                    pushed,
                    csrfToken,
                    "choose a handle ending in .test that no account has, such as carol.test"
                )
            }
            let account = SignUp.createAccount(handle: handle, in: core)
            core.monitor.note(request, "signed up \(account.handle) (\(account.did))")
            return await approve(request, pushed, account: account, status: 303)
        case "approve":
            let settings = core.configuration
            guard let account = form["account"].flatMap(settings.account(for:)) else {
                return await refuseChoice(request, pushed, csrfToken, "choose one of the sandbox's accounts")
            }
            if let hinted = pushed.loginHintDID, hinted != account.did {
                return await refuseChoice(
                    request,
                    pushed,
                    csrfToken,
                    "the client asked for another account (login_hint)"
                )
            }
            return await approve(request, pushed, account: account, status: 303)
        case "deny":
            core.monitor.note(request, "the user denied \(pushed.clientID)")
            return redirect(
                pushed,
                [("error", "access_denied"), ("error_description", "The user denied the request")],
                status: 303
            )
        default:
            return await refuseChoice(request, pushed, csrfToken, "decision must be approve or deny")
        }
    }

    /// Refuses a choice made on the page, keeping its request open under the same CSRF token.
    ///
    /// The user goes back and chooses again; only a choice that is carried out spends the token.
    private func refuseChoice(
        _ request: SandboxRequest,
        _ pushed: PushedAuthorization,
        _ csrfToken: String,
        _ explanation: String
    ) async -> SandboxResponse {
        await core.authorizations.openInteraction(pushed, csrfToken: csrfToken)
        return errorPage(request, .invalidRequest, explanation)
    }

    /// Issues a code for the account and redirects to the client with `code`, `state` and `iss` (RFC 9207; no
    /// `iss` under the `noIssParameter` fault).
    private func approve(
        _ request: SandboxRequest,
        _ pushed: PushedAuthorization,
        account: SandboxAccount,
        status: Int
    ) async -> SandboxResponse {
        let code = "cod-" + core.randomToken()
        let record = AuthorizationCodeRecord(
            request: pushed,
            subject: account.did,
            expiresAt: core.now().addingTimeInterval(core.configuration.authorizationCodeLifetime)
        )
        await core.authorizations.issueCode(code, record: record)
        core.monitor.note(request, "\(account.handle) approved \(pushed.clientID); code \(SandboxMonitor.redact(code))")
        return redirect(pushed, [("code", code)], status: status)
    }

    /// A redirect to the client with `parameters`, then `state` and `iss` (RFC 6749 §4.1.2, RFC 9207 §2; no `iss`
    /// under the `noIssParameter` fault).
    private func redirect(
        _ pushed: PushedAuthorization,
        _ parameters: [(String, String)],
        status: Int
    ) -> SandboxResponse {
        let iss = core.configuration.faults.noIssParameter ? [] : [("iss", issuer)]
        return .redirect(
            Self.redirectLocation(pushed.redirectURI, parameters + [("state", pushed.state)] + iss),
            status: status
        )
    }

    private func errorPage(
        _ request: SandboxRequest,
        _ reason: SandboxRejectionReason,
        _ explanation: String
    ) -> SandboxResponse {
        core.monitor.rejected(request, reason, explanation)
        return .html(400, ConsentPage.errorPage(explanation))
    }

    /// The redirect URI with parameters added to its query.
    static func redirectLocation(_ redirectURI: String, _ parameters: [(String, String)]) -> String {
        let separator = redirectURI.contains("?") ? "&" : "?"
        return redirectURI + separator + FormEncoding.encode(parameters)
    }
}
