public import Foundation

/// Where a running sandbox listens: three origins on 127.0.0.1.
public struct SandboxEndpoints: Sendable, Hashable {
    /// The PLC directory origin; DID documents are at `<plcDirectory>/<did>`.
    public var plcDirectory: URL
    /// The PDS origin: the resource server, and the handle resolver (`com.atproto.identity.resolveHandle`).
    public var pds: URL
    /// The authorization server origin, which is also its `issuer`.
    public var authorizationServer: URL

    /// Creates a set of endpoints.
    public init(plcDirectory: URL, pds: URL, authorizationServer: URL) {
        self.plcDirectory = plcDirectory
        self.pds = pds
        self.authorizationServer = authorizationServer
    }

    /// The issuer string, exactly as the authorization server's metadata gives it.
    public var issuer: String { Self.origin(authorizationServer) }

    /// The settings `atoauth` needs to use this sandbox, in a fixed order.
    public var atoauthSettings: [(name: String, value: String)] {
        [
            ("ATOAUTH_PLC_DIRECTORY", Self.origin(plcDirectory)),
            ("ATOAUTH_HANDLE_RESOLVER", Self.origin(pds)),
            ("ATOAUTH_ALLOW_HTTP_LOOPBACK", "1"),
        ]
    }

    /// The settings as an environment dictionary, to pass to a child process.
    public var environment: [String: String] {
        Dictionary(uniqueKeysWithValues: atoauthSettings.map { ($0.name, $0.value) })
    }

    /// The settings as shell lines, `export NAME=value`, one per line.
    public var shellExports: String {
        atoauthSettings.map { "export \($0.name)=\($0.value)" }.joined(separator: "\n")
    }

    /// The origin string of a URL: `scheme://host:port`, without a trailing slash.
    static func origin(_ url: URL) -> String {
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
