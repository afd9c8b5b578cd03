import ATOAuthTesting
import Foundation
import OAuthSessionManager
import Synchronization

/// A scripted AT Protocol world on one loopback server: PLC directory, handle resolver, PDS metadata, and an
/// authorization server with PAR (DPoP nonce challenge included), authorize, token and revocation endpoints.
///
/// It answers from a ``HostileScript``, which a test may change at any time, and remembers what a real server
/// would: pushed requests, issued codes, and the tokens it was asked to revoke.
final class HostileWorld: Sendable {
    /// A pushed authorization request the server accepted.
    struct PushedRequest: Sendable {
        var issuer: String
        var state: String
        var redirectURI: String
        var codeChallenge: String
        var clientID: String
        /// The DID of the account the `login_hint` names; alice's when there is none.
        var account: String
    }

    /// A revocation the server carried out.
    struct Revocation: Sendable, Hashable {
        /// The origin the revocation request went to.
        var origin: String
        /// The token revoked.
        var token: String
        /// Its `token_type_hint`.
        var hint: String
    }

    private struct State {
        var script: HostileScript?
        var pushed: [String: PushedRequest] = [:]
        var codes: [String: PushedRequest] = [:]
        var revocations: [Revocation] = []
        var counter = 0
    }

    static let nonce = "hostile-world-nonce"

    private let state = Mutex(State())

    /// Installs the honest script for `port`.
    func prepare(port: Int) {
        state.withLock { $0.script = HostileScript(port: port) }
    }

    /// Changes the script from now on.
    func update(_ change: (inout HostileScript) -> Void) {
        state.withLock { state in
            guard var script = state.script else { return }
            change(&script)
            state.script = script
        }
    }

    /// The script in force.
    var script: HostileScript? { state.withLock { $0.script } }

    /// Every revocation carried out, in order.
    var revocations: [Revocation] { state.withLock { $0.revocations } }

    /// Answers one request as the scripted world would.
    func answer(_ request: RecordedRequest) -> ScriptedResponse {
        state.withLock { state in
            guard let script = state.script else { return .text("the world is not ready", status: 503) }
            let origin = "http://\(request.header("Host") ?? "")"
            let path = request.path.removingPercentEncoding ?? request.path
            if let override = script.overrides[origin + path] { return override }
            switch (request.method, path) {
            case ("GET", "/xrpc/com.atproto.identity.resolveHandle"):
                return Self.resolveHandle(request, script: script)
            case ("GET", let path) where path.hasPrefix("/did:"):
                guard let document = script.documents[String(path.dropFirst())] else {
                    return .json(#"{"message":"DID not registered"}"#, status: 404)
                }
                return Self.json(Self.object(document))
            case ("GET", "/.well-known/oauth-protected-resource"):
                guard let metadata = script.protectedResources[origin] else { return .text("no PDS", status: 404) }
                return Self.json([
                    "resource": metadata.resource, "authorization_servers": metadata.authorizationServers,
                    "scopes_supported": [] as [String], "bearer_methods_supported": ["header"],
                ])
            case ("GET", "/.well-known/oauth-authorization-server"):
                guard let metadata = script.authorizationServers[origin] else { return .text("no AS", status: 404) }
                return Self.json(Self.object(metadata))
            case ("GET", "/oauth/authorize"):
                return Self.authorize(request, origin: origin, script: script, state: &state)
            case ("POST", "/oauth/par"), ("POST", "/oauth/token"), ("POST", "/oauth/revoke"):
                if script.demandsDPoPNonce && Self.proofNonce(request) != Self.nonce {
                    return Self.oauthError("use_dpop_nonce", "Authorization server requires nonce in DPoP proof")
                }
                var response = Self.post(path, request, origin: origin, script: script, state: &state)
                if !script.issuesDPoPNonces { response.headers.removeAll { $0.name == "DPoP-Nonce" } }
                return response
            default:
                return .text("not found", status: 404)
            }
        }
    }

    private static func resolveHandle(_ request: RecordedRequest, script: HostileScript) -> ScriptedResponse {
        let handle = form(request.query ?? "")["handle"] ?? ""
        guard let did = script.handles[handle] else {
            return .json(#"{"error":"InvalidRequest","message":"Unable to resolve handle"}"#, status: 400)
        }
        return json(["did": did])
    }

    private static func authorize(
        _ request: RecordedRequest,
        origin: String,
        script: HostileScript,
        state: inout State
    ) -> ScriptedResponse {
        let query = form(request.query ?? "")
        guard let pushed = state.pushed.removeValue(forKey: query["request_uri"] ?? ""),
            pushed.issuer == origin, pushed.clientID == query["client_id"]
        else {
            return .text("unknown or expired request_uri", status: 400)
        }
        var parameters: [(String, String)] = []
        if let failure = script.authorizationError {
            parameters += [("error", failure.code), ("error_description", failure.description)]
        } else {
            state.counter += 1
            let code = "hostile-code-\(state.counter)"
            state.codes[code] = pushed
            parameters.append(("code", code))
        }
        parameters.append(("state", pushed.state))
        switch script.callbackIssuer {
        case .honest: parameters.append(("iss", pushed.issuer))
        case .omitted: break
        case .claimed(let issuer): parameters.append(("iss", issuer))
        }
        return .redirect(to: pushed.redirectURI + "?" + encode(parameters))
    }

    private static func account(hintedBy hint: String?, script: HostileScript) -> String {
        guard let hint else { return HostileScript.aliceDID }
        return hint.hasPrefix("did:") ? hint : script.handles[hint] ?? HostileScript.aliceDID
    }

    private static func post(
        _ path: String,
        _ request: RecordedRequest,
        origin: String,
        script: HostileScript,
        state: inout State
    ) -> ScriptedResponse {
        let fields = form(String(decoding: request.body, as: UTF8.self))
        switch path {
        case "/oauth/par":
            guard let stateValue = fields["state"], let redirectURI = fields["redirect_uri"],
                let challenge = fields["code_challenge"], let clientID = fields["client_id"],
                fields["code_challenge_method"] == "S256", fields["response_type"] == "code"
            else {
                return oauthError("invalid_request", "incomplete pushed authorization request")
            }
            state.counter += 1
            let requestURI = "urn:ietf:params:oauth:request_uri:hostile-\(state.counter)"
            state.pushed[requestURI] = PushedRequest(
                issuer: origin,
                state: stateValue,
                redirectURI: redirectURI,
                codeChallenge: challenge,
                clientID: clientID,
                account: account(hintedBy: fields["login_hint"], script: script)
            )
            return withNonce(json(["request_uri": requestURI, "expires_in": 299], status: 201))
        case "/oauth/token":
            guard fields["grant_type"] == "authorization_code",
                let pushed = state.codes.removeValue(forKey: fields["code"] ?? ""),
                pushed.issuer == origin, pushed.redirectURI == fields["redirect_uri"],
                pushed.clientID == fields["client_id"],
                PKCE.challenge(for: fields["code_verifier"] ?? "") == pushed.codeChallenge
            else {
                return oauthError("invalid_grant", "the code, verifier or redirect URI does not match")
            }
            let tokens = script.tokens
            return withNonce(
                json(
                    [
                        "access_token": tokens.accessToken, "refresh_token": tokens.refreshToken,
                        "token_type": tokens.tokenType, "scope": tokens.scope, "sub": tokens.sub ?? pushed.account,
                        "expires_in": Self.rawExpiresIn,
                    ],
                    replacing: Self.rawExpiresIn,
                    with: tokens.expiresIn
                )
            )
        default:
            let revocation = Revocation(
                origin: origin,
                token: fields["token"] ?? "",
                hint: fields["token_type_hint"] ?? ""
            )
            state.revocations.append(revocation)
            return withNonce(ScriptedResponse(status: 200))
        }
    }
}
