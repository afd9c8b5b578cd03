import ATOAuthTesting
import ATProtoIdentity
import Foundation
import HTTPTransport
import OAuthMetadata
import SignInDoctor

/// A healthy account and its servers, answered from a script with no I/O.
///
/// A handle published by DNS and HTTPS, its DID document on the PLC directory, a PDS and its authorization server;
/// tests break one part at a time.
struct ScriptedWorld {
    static let handle = "alice.example.com"
    static let did = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
    static let pds = "https://pds.example.com"
    static let issuer = "https://auth.example.com"
    static let parEndpoint = "https://auth.example.com/oauth/par"

    var dns: [String: Result<[String], IdentityError>] = ["_atproto.alice.example.com": .success(["did=\(did)"])]
    var wellKnownDID: HTTPResponse? = .text(did + "\n")
    var document: [String: Any] = [
        "id": did,
        "alsoKnownAs": ["at://\(handle)"],
        "service": [["id": "#atproto_pds", "type": "AtprotoPersonalDataServer", "serviceEndpoint": pds]],
    ]
    var resource: [String: Any] = ["resource": pds, "authorization_servers": [issuer]]
    var metadata: [String: Any] = [
        "issuer": issuer,
        "authorization_endpoint": "\(issuer)/oauth/authorize",
        "token_endpoint": "\(issuer)/oauth/token",
        "revocation_endpoint": "\(issuer)/oauth/revoke",
        "pushed_authorization_request_endpoint": parEndpoint,
        "require_pushed_authorization_requests": true,
        "client_id_metadata_document_supported": true,
        "authorization_response_iss_parameter_supported": true,
        "code_challenge_methods_supported": ["S256"],
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "dpop_signing_alg_values_supported": ["ES256"],
        "token_endpoint_auth_methods_supported": ["none", "private_key_jwt"],
        "token_endpoint_auth_signing_alg_values_supported": ["ES256"],
        "scopes_supported": ["atproto", "transition:generic"],
        "prompt_values_supported": ["login", "consent", "select_account", "create"],
        "protected_resources": [pds],
    ]
    /// The PAR endpoint's answers, in order: by default a nonce challenge, then acceptance with a new nonce.
    var pushedRequestAnswers: [HTTPResponse] = [
        ScriptedWorld.parAnswer(["error": "use_dpop_nonce"], status: 400, nonce: "nonce-1"),
        ScriptedWorld.parAnswer(
            ["request_uri": "urn:ietf:params:oauth:request_uri:x", "expires_in": 300],
            status: 201,
            nonce: "nonce-2"
        ),
    ]
    var addresses: [String: [String]] = [:]
    /// A hosted client document served at ``clientID``, probed with `--client-id` when set.
    var clientDocument: [String: Any]?
    static let clientID = "https://app.example.com/client-metadata.json"
    /// The key set a confidential document names as its `jwks_uri`, served there: by default one public key.
    var clientKeySet: [String: Any] = ["keys": [ClientKey().publicJWK]]
    static let keySetURI = "https://app.example.com/jwks.json"
    var handleResolver: URL?
    /// The PLC directory, when not the default one.
    var plcDirectory: URL?
    var now: Date = Date()

    /// An answer of the PAR endpoint, dated now.
    static func parAnswer(_ object: [String: Any], status: Int, nonce: String?, date: Date = Date()) -> HTTPResponse {
        var response = HTTPResponse.json(object, status: status)
        if let nonce { response.headers.add(name: "DPoP-Nonce", value: nonce) }
        response.headers.add(name: "Date", value: httpDate(date))
        return response
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// The transport that answers as this world says.
    func transport() -> ScriptedTransport {
        let transport = ScriptedTransport(responses: pushedRequestAnswers)
        if let wellKnownDID { transport.on("https://\(Self.handle)/.well-known/atproto-did", wellKnownDID) }
        transport.on("https://plc.directory/\(Self.did)", .json(document))
        transport.on("\(Self.pds)/.well-known/oauth-protected-resource", .json(resource))
        transport.on("\(Self.issuer)/.well-known/oauth-authorization-server", .json(metadata))
        if let clientDocument { transport.on(Self.clientID, .json(clientDocument)) }
        transport.on(Self.keySetURI, .json(clientKeySet))
        return transport
    }

    /// Diagnoses `target` in this world.
    func diagnose(
        _ target: String = ScriptedWorld.handle,
        scope: String = SignInDoctor.defaultScope,
        transport: ScriptedTransport? = nil,
        local: LocalAccount? = nil
    ) async throws -> Diagnosis {
        let configuration = SignInDoctor.Configuration(
            identity: IdentityResolver.Configuration(
                plcDirectory: plcDirectory ?? DIDResolver.defaultPLCDirectory,
                handleResolverService: handleResolver
            ),
            scope: scope,
            clientID: clientDocument == nil ? nil : URL(string: Self.clientID),
            addressResolver: FakeAddressResolver(table: addresses),
            dns: FakeDNS(dns),
            now: { [now] in now }
        )
        return try await SignInDoctor(transport: transport ?? self.transport(), configuration: configuration)
            .diagnose(target) { _ in local }
    }
}

extension Diagnosis {
    /// The status of a check, or `nil` when it is missing.
    func status(_ check: String) -> Finding.Status? { finding(check)?.status }

    /// The checks that did not pass, with their status, for failure messages.
    var problems: String {
        checks.filter { $0.status != .pass }.map { "\($0.check)=\($0.status.rawValue): \($0.seen)" }
            .joined(separator: "\n")
    }
}
