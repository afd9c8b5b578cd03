import Hummingbird

/// Lets a client in a web page use the sandbox as it uses a real PDS and authorization server, which answer any
/// origin, as the reference servers do: a preflight is answered, and every answer to a request with `Origin` allows
/// it and names the headers a client must read, `DPoP-Nonce` and `WWW-Authenticate` (RFC 9449 §8–§9), which a browser
/// hides from the page otherwise (Fetch Standard, CORS protocol).
///
/// The test-control endpoints still refuse what a browser sends (``AuthorizationServerHandler/addControlRoutes(to:)``).
struct BrowserAccessMiddleware: RouterMiddleware {
    typealias Context = SandboxContext

    /// The answer headers a page may read.
    static let exposedHeaders = ["DPoP-Nonce", "WWW-Authenticate"]

    private let cors = CORSMiddleware<SandboxContext>(
        allowOrigin: .all,
        allowHeaders: [.accept, .authorization, .contentType, .origin]
            + ["DPoP", "atproto-proxy", "atproto-accept-labelers"].compactMap { HTTPFields.Element.Name($0) },
        allowMethods: [.get, .head, .post, .options],
        exposedHeaders: exposedHeaders,
        maxAge: .seconds(24 * 60 * 60)
    )

    func handle(
        _ request: Request,
        context: SandboxContext,
        next: (Request, SandboxContext) async throws -> Response
    ) async throws -> Response {
        var response = try await cors.handle(request, context: context, next: next)
        // CORSMiddleware names the exposed headers in a preflight's answer only; the browser reads them from each.
        if request.headers[.origin] != nil {
            response.headers[HTTPFields.Element.Name.accessControlExposeHeaders] =
                Self.exposedHeaders.joined(separator: ", ")
        }
        return response
    }
}
