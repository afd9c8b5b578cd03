import ATOAuth
import Foundation

/// The client metadata document, served at the `client_id` URL: who the service is to an authorization server
/// (atproto.com/specs/oauth, Clients).
///
/// A confidential client is a `web` application that authenticates with `private_key_jwt`: it publishes the public
/// half of its signing keys in `jwks`, and signs a client assertion (ES256) for every pushed authorization request
/// (PAR), token request and refresh. The authorization server fetches this document when the PAR names it, checks
/// the redirect URI against `redirect_uris`, and binds the session it issues to the key that signed the sign-in: that
/// key must stay published here for as long as the session is used.
struct ClientDocument: Encodable {
    /// The public keys, as `{"keys": […]}`.
    struct KeySet: Encodable {
        /// Each key's public JWK, with its `kid`; never a private part.
        var keys: [[String: String]]
    }

    /// The document's own URL.
    var clientID: String
    /// A web service: the only kind of client that may be confidential.
    var applicationType = "web"
    /// The name the consent page shows.
    var clientName = "atoauth web example"
    /// The service's home page.
    var clientURI: String
    /// Where the authorization server sends the browser back, with the code: the callback route, which spends it,
    /// then the "copy this address" page, whose address an operator pastes into atoauth.
    var redirectURIs: [String]
    /// A sign-in gets a code, and the session is refreshed.
    var grantTypes = ["authorization_code", "refresh_token"]
    /// The authorization code flow.
    var responseTypes = ["code"]
    /// Every permission the service may ask for.
    var scope = "atproto transition:generic"
    /// A confidential client: every request to the authorization server carries a signed client assertion.
    var tokenEndpointAuthMethod = "private_key_jwt"
    /// The assertions' algorithm.
    var tokenEndpointAuthSigningAlg = "ES256"
    /// Access tokens are bound to a DPoP key, as the AT Protocol requires.
    var dpopBoundAccessTokens = true
    /// The signing keys' public halves.
    var jwks: KeySet

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case applicationType = "application_type"
        case clientName = "client_name"
        case clientURI = "client_uri"
        case redirectURIs = "redirect_uris"
        case grantTypes = "grant_types"
        case responseTypes = "response_types"
        case scope
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case tokenEndpointAuthSigningAlg = "token_endpoint_auth_signing_alg"
        case dpopBoundAccessTokens = "dpop_bound_access_tokens"
        case jwks
    }

    /// The document of the service at `origin`, publishing `keys`.
    init(origin: String, keys: [[String: String]]) {
        clientID = Self.clientID(origin: origin)
        clientURI = origin
        // As `atoauth client metadata --redirect-uri <callback> --copy-address-uri <page>` lists them.
        redirectURIs = [Self.redirectURI(origin: origin), Self.copyAddressURI(origin: origin)]
        jwks = KeySet(keys: keys)
    }

    /// The `client_id`: where the document is served.
    static func clientID(origin: String) -> String { origin + "/client-metadata.json" }

    /// The redirect URI: the service's callback route.
    static func redirectURI(origin: String) -> String { origin + "/callback" }

    /// The redirect URI of an operator's sign-in from a terminal (`atoauth accounts add … --client-key …
    /// --redirect-uri`): a static page that only shows its own address.
    static func copyAddressURI(origin: String) -> String { origin + "/copy-address" }

    /// The document as JSON.
    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Makes the service's first signing key when the store has none.
    ///
    /// The key is a new P-256 key, sealed in the store like every other secret. As the first of its set it signs at
    /// once (`publishedFor: 0`): no authorization server can have fetched an older key set. A later key (rotation) is
    /// added with `atoauth client keygen`, published here at once, and signs only after servers have seen it.
    static func ensureSigningKey(_ accounts: AccountManager, logger: Logger) async throws {
        guard try await accounts.clientKeys().isEmpty else { return }
        let record = try await accounts.addClientKey(ClientKey(), publishedFor: 0)
        logger.info("created the client signing key \(record.keyID)")
    }
}
