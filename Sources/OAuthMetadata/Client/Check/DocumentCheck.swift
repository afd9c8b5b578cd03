import ATProtoPermissions
import Foundation
import HTTPTransport
import WireFormat

/// The checks of one document's members, collecting every problem.
struct DocumentCheck {
    /// What `application_type` makes of the client.
    enum Kind {
        case native
        case web
        /// An `application_type` that is neither, already reported: the checks of one kind are skipped.
        case unknown
    }

    let members: [String: DocumentValue]
    let allowHTTPLoopback: Bool
    private(set) var problems: [ClientMetadataProblem] = []
    /// The `client_id`, when it is a URL with a host, whatever else is wrong with it.
    var clientID: URLComponents?

    init(members: [String: DocumentValue], allowHTTPLoopback: Bool) {
        self.members = members
        self.allowHTTPLoopback = allowHTTPLoopback
    }

    /// Runs every check, in the order of the profile's list of members.
    mutating func run(fetchedFrom url: String?) {
        checkClientID(fetchedFrom: url)
        let kind = checkApplicationType()
        checkGrantTypes()
        checkResponseTypes()
        checkScope()
        checkDPoP()
        checkRedirectURIs(kind: kind)
        let confidential = checkAuthenticationMethod(kind: kind)
        checkKeys(confidential: confidential)
        checkDisplayURIs()
        checkServerRefusals()
    }

    mutating func report(_ field: String, _ problem: String, _ rule: String) {
        problems.append(ClientMetadataProblem(field: field, problem: problem, rule: rule))
    }

    /// A member's string; a member of another type is reported.
    mutating func string(_ name: String, rule: String) -> String? {
        guard let value = members[name] else { return nil }
        guard case .string(let text) = value else {
            report(name, "it must be a string, not \(value.summary)", rule)
            return nil
        }
        return text
    }

    /// A member's array of strings; a member of another type is reported.
    mutating func strings(_ name: String, rule: String) -> [String]? {
        guard let value = members[name] else { return nil }
        guard case .array(let items) = value else {
            report(name, "it must be an array of strings, not \(value.summary)", rule)
            return nil
        }
        let texts = items.compactMap(\.string)
        guard texts.count == items.count else {
            report(name, "it must be an array of strings; some of its items are not strings", rule)
            return nil
        }
        return texts
    }

    /// A value of the document, quoted and made safe to print.
    static func quoted(_ text: String) -> String { "“\(TerminalText.sanitized(text, limit: 200))”" }

    /// Whether the client is a development client: `client_id` on an http loopback IP, in development mode.
    var isDevelopmentClient: Bool {
        allowHTTPLoopback && clientID?.scheme?.lowercased() == "http"
            && ClientMetadata.isLoopbackIP(clientID?.host ?? "")
    }

    /// Each value listed more than once, once, in order.
    static func repeated(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        var reported: Set<String> = []
        return values.filter { !seen.insert($0).inserted && reported.insert($0).inserted }
    }

    // MARK: - The members every client has

    private mutating func checkClientID(fetchedFrom url: String?) {
        let rule = CheckRule.clientID
        guard members["client_id"] != nil else {
            report("client_id", "it is missing; it must be the document's own https URL", rule)
            return
        }
        guard let text = string("client_id", rule: rule) else { return }
        if let url, text != url {
            report(
                "client_id",
                "it is \(Self.quoted(text)), but the document was fetched from \(Self.quoted(url)); they must be "
                    + "identical",
                rule
            )
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else {
            report("client_id", "\(Self.quoted(text)) is not a URL with a host", rule)
            return
        }
        clientID = components
        let loopback = scheme == "http" && ClientMetadata.isLoopbackIP(host)
        if scheme != "https", !(allowHTTPLoopback && loopback) {
            report(
                "client_id",
                loopback
                    ? "it uses http, which only development mode accepts (for a loopback IP); a deployed client_id is https"
                    : "it must be an https URL, not \(scheme)",
                rule
            )
        }
        if components.percentEncodedQuery != nil { report("client_id", "it has a query; a client_id has none", rule) }
        if components.percentEncodedFragment != nil {
            report("client_id", "it has a fragment; a client_id has none", rule)
        }
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
            report("client_id", "it has user info (user@); a client_id has none", rule)
        }
        if URL(string: text)?.hasUsablePort != true { report("client_id", "its port is outside 1–65535", rule) }
    }

    /// `web` when missing, as OpenID Connect Registration §2 says.
    private mutating func checkApplicationType() -> Kind {
        guard members["application_type"] != nil else { return .web }
        guard let type = string("application_type", rule: CheckRule.applicationType) else { return .unknown }
        switch type {
        case "native": return .native
        case "web": return .web
        default:
            report(
                "application_type",
                "it is \(Self.quoted(type)); it must be native (an app) or web (a web service or browser app)",
                CheckRule.applicationType
            )
            return .unknown
        }
    }

    private mutating func checkGrantTypes() {
        checkExactList("grant_types", ["authorization_code", "refresh_token"], rule: CheckRule.grantTypes) { grant in
            grant == "implicit" || grant == "password"
                ? ("\(grant) is refused: tokens come only from an authorization code", CheckRule.refusedGrant)
                : (
                    "\(Self.quoted(grant)) is not allowed; the grant types are authorization_code and refresh_token",
                    CheckRule.grantTypes
                )
        }
    }

    private mutating func checkResponseTypes() {
        checkExactList("response_types", ["code"], rule: CheckRule.responseTypes) { type in
            (
                "\(Self.quoted(type)) is not allowed: sign-in is the authorization code flow only, [\"code\"]",
                CheckRule.responseTypes
            )
        }
    }

    /// A member that must list exactly `required`, each once, in any order: what is missing, what else is there
    /// (each once, in the words and under the rule `other` gives) and what is listed twice are reported.
    private mutating func checkExactList(
        _ name: String,
        _ required: [String],
        rule: String,
        other: (String) -> (problem: String, rule: String)
    ) {
        let whole = "[" + required.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        guard members[name] != nil else {
            report(name, "it is missing; it must be \(whole)", rule)
            return
        }
        guard let values = strings(name, rule: rule) else { return }
        for value in required where !values.contains(value) {
            report(name, "it lacks \(value); it must be \(whole)", rule)
        }
        var seen: Set<String> = []
        for value in values where !required.contains(value) && seen.insert(value).inserted {
            let refusal = other(value)
            report(name, refusal.problem, refusal.rule)
        }
        for value in Self.repeated(values) {
            report(name, "\(Self.quoted(value)) is listed twice", CheckRule.listedTwice)
        }
    }

    /// Each token a permission scope (atproto.com/specs/permission), `atproto` among them.
    private mutating func checkScope() {
        let rule = CheckRule.scope
        guard members["scope"] != nil else {
            report("scope", "it is missing; it must contain atproto", rule)
            return
        }
        guard let scope = string("scope", rule: rule) else { return }
        if !ScopeSet.isWellFormed(scope) {
            report("scope", "its tokens must be printable ASCII, separated by single spaces", CheckRule.scopeSyntax)
        }
        var seen: Set<String> = []
        var hasATProto = false
        for token in scope.split(separator: " ").map(String.init) {
            guard seen.insert(token).inserted else {
                report("scope", "\(Self.quoted(token)) is listed twice", CheckRule.listedTwice)
                continue
            }
            do throws(PermissionError) {
                if try Permission(parsing: token) == .atproto { hasATProto = true }
            } catch {
                report("scope", error.description, rule)
            }
        }
        if !hasATProto { report("scope", "it lacks atproto, which every AT Protocol client asks for", rule) }
    }

    private mutating func checkDPoP() {
        switch members["dpop_bound_access_tokens"] {
        case .bool(true)?:
            break
        case nil:
            report("dpop_bound_access_tokens", "it is missing; it must be true", CheckRule.dpop)
        case let value?:
            report("dpop_bound_access_tokens", "it is \(value.summary); it must be true", CheckRule.dpop)
        }
    }

    /// Whether the client is confidential (`private_key_jwt`).
    private mutating func checkAuthenticationMethod(kind: Kind) -> Bool {
        let field = "token_endpoint_auth_method"
        let rule = CheckRule.authMethod
        guard members[field] != nil else {
            report(field, "it is missing; it is none for a public client, private_key_jwt for a confidential one", rule)
            return false
        }
        guard let method = string(field, rule: rule) else { return false }
        switch method {
        case "none":
            if members["token_endpoint_auth_signing_alg"] != nil {
                report(
                    "token_endpoint_auth_signing_alg",
                    "a public client (none) signs no assertion; remove it",
                    CheckRule.publicSignsNothing
                )
            }
            return false
        case "private_key_jwt":
            if kind == .native {
                report(
                    field,
                    "a native app is a public client, which cannot keep a private key: it uses none; private_key_jwt "
                        + "is for a web service (application_type web)",
                    CheckRule.nativeIsPublic
                )
            }
            return true
        default:
            report(
                field,
                "\(Self.quoted(method)) is not supported; use none (a public client) or private_key_jwt (a "
                    + "confidential one)",
                rule
            )
            return false
        }
    }
}
