import ATProtoSyntax
import Foundation
import Testing

@testable import atoauth

/// Each value type the commands take parses its text once, and a refusal says what the option needs.
@Suite("Typed command-line values")
struct ArgumentValueTests {
    @Test(
        "a host and port: IPv4, a name, or IPv6 in brackets",
        arguments: [("127.0.0.1:8787", "127.0.0.1", 8787), ("localhost:0", "localhost", 0), ("[::1]:80", "::1", 80)]
    )
    func hostAndPort(text: String, host: String, port: Int) throws {
        #expect(try HostAndPort(parsing: text) == HostAndPort(host: host, port: port))
    }

    @Test("anything else is no host and port", arguments: ["8787", "::1:80", "[::1]80", "[::1", ":80", "a:", "a:x1"])
    func notHostAndPort(text: String) {
        #expect(throws: InvalidArgument.self) { try HostAndPort(parsing: text) }
        #expect(HostAndPort(argument: text) == nil)
    }

    @Test("a byte count with K, M or G", arguments: [("1", 1), ("20M", 20 << 20), ("3k", 3 << 10), ("64G", 64 << 30)])
    func byteCount(text: String, bytes: Int) throws {
        #expect(try ByteCount(parsing: text).bytes == bytes)
    }

    @Test("a byte count out of range or malformed", arguments: ["0", "65G", "M", "-1", "1.5M", "20X", "99999999999G"])
    func notByteCount(text: String) {
        let error = #expect(throws: InvalidArgument.self) { try ByteCount(parsing: text) }
        #expect(error?.description.contains("a number of bytes from 1 to 64G") == true)
    }

    @Test("seconds within a range, naming the option when out of it")
    func seconds() throws {
        #expect(try Seconds(parsing: "2.5").duration == .milliseconds(2500))
        #expect(try Seconds(parsing: "1", within: 1...3600, source: "--request-timeout").value == 1)
        for text in ["0", "3601", "soon", "nan", "inf", "-1"] {
            let error = #expect(throws: InvalidArgument.self) {
                try Seconds(parsing: text, within: 1...3600, source: "--request-timeout")
            }
            #expect(error?.description == "--request-timeout must be a number of seconds from 1 to 3600.")
            #expect(
                error?.sentence(naming: "ATOAUTH_REQUEST_TIMEOUT")
                    == "ATOAUTH_REQUEST_TIMEOUT must be a number of seconds from 1 to 3600, not “\(text)”."
            )
        }
    }

    @Test("a token lifetime: a whole number with s, m, h or d, up to 366 days")
    func tokenLifetime() throws {
        #expect(try TokenLifetime(parsing: "90m").duration == .seconds(5400))
        #expect(try TokenLifetime(parsing: "366d").duration == .seconds(366 * 86_400))
        for text in ["5 minutes", "0s", "367d", "1.5h", "h", "99999999999999999d", "-1s"] {
            #expect(throws: InvalidArgument.self, "\(text)") { try TokenLifetime(parsing: text) }
        }
    }

    @Test(
        "an http(s) URL with a usable port",
        arguments: ["https://plc.directory", "http://127.0.0.1:2582/x", "https://[::1]:443"]
    )
    func httpURL(text: String) throws {
        #expect(try HTTPURL(parsing: text).url.absoluteString == text)
    }

    @Test("no http(s) URL", arguments: ["ftp://nowhere", "not a url", "http://127.0.0.1:70000"])
    func notHTTPURL(text: String) {
        let error = #expect(throws: InvalidArgument.self) { try HTTPURL(parsing: text) }
        #expect(error?.sentence(naming: "--plc-directory").hasPrefix("--plc-directory needs an http(s) URL") == true)
    }

    @Test("a header field, its value trimmed; atproto-proxy checked as a service")
    func headerField() throws {
        let field = try HeaderField(parsing: "atproto-accept-labelers: did:plc:abc ")
        #expect(field.name == "atproto-accept-labelers" && field.value == "did:plc:abc" && !field.isProxy)
        let proxy = try HeaderField(parsing: "Atproto-Proxy:did:web:api.bsky.app#bsky_appview")
        #expect(proxy.isProxy && proxy.value == "did:web:api.bsky.app#bsky_appview")
    }

    @Test(
        "a header field the client cannot send",
        arguments: [
            ("NoColon", "--header takes NAME:VALUE"), ("Bad Name:x", "“Bad Name” is not a header name"),
            ("Host:x", "--header cannot set Host: the HTTP client sets it."), ("dpop:x", "--header cannot set dpop"),
            ("Content-Type:text/plain", "--header cannot set Content-Type"),
            ("X-Bad:a\r\nInjected: yes", "--header X-Bad: the value may hold only printable ASCII"),
            ("atproto-proxy:nohash", "--header atproto-proxy takes DID#SERVICE"),
        ]
    )
    func notHeaderField(text: String, message: String) {
        let error = #expect(throws: InvalidArgument.self) { try HeaderField(parsing: text) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test("a proxy service is DID#SERVICE")
    func proxyService() throws {
        #expect(try ProxyService(parsing: "did:web:api.bsky.app#bsky_appview").rawValue.hasSuffix("#bsky_appview"))
        let badDID = #expect(throws: InvalidArgument.self) { try ProxyService(parsing: "did:x#svc") }
        #expect(badDID?.description.hasPrefix("--proxy: invalid DID") == true)
        let badService = #expect(throws: InvalidArgument.self) { try ProxyService(parsing: "did:web:a.example#") }
        #expect(badService?.description.contains("is not a service ID") == true)
        for unresolvable in [
            "did:web:foo#bsky_appview", "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK#atproto_labeler",
        ] {
            let refused = #expect(throws: InvalidArgument.self) { try ProxyService(parsing: unresolvable) }
            #expect(refused?.description.contains("cannot name a service") == true, "\(String(describing: refused))")
        }
    }

    @Test("an NSID, by the syntax rules")
    func nsid() throws {
        #expect(
            try XRPCMethod(parsing: "com.atproto.server.getSession").nsid.rawValue == "com.atproto.server.getSession"
        )
        let error = #expect(throws: InvalidArgument.self) { try XRPCMethod(parsing: "getSession") }
        #expect(error?.description == "it is not an NSID such as com.atproto.server.getSession.")
    }

    @Test("permissions, by the rules for a requested scope")
    func scope() throws {
        let list = try PermissionList(parsing: "repo:app.bsky.feed.post?action=create blob:image/*")
        #expect(String(describing: list.scope).contains("blob:image/*"))
        let error = #expect(throws: InvalidArgument.self) { try PermissionList(parsing: "repo:x?action=publish") }
        #expect(error?.description.hasPrefix("--scope: ") == true)
        #expect(error?.description.contains("atproto.com/specs/permission") == true)
    }

    @Test("a client key: a file that exists, or else a kid by the kid rule")
    func clientKey() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("client key \(UUID().uuidString).jwk")
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try ClientKeyArgument(parsing: file.path) == .file(path: file.path), "a file may have any name")
        #expect(try ClientKeyArgument(parsing: "-dashed.key_1~:+=") == .keyID("-dashed.key_1~:+="))
        for text in ["two words", "", String(repeating: "k", count: 129), "a/b", "line\nbreak"] {
            let error = #expect(throws: InvalidArgument.self) { try ClientKeyArgument(parsing: text) }
            #expect(error?.description.contains("names no file, and a kid is 1 to 128 characters") == true)
        }
    }
}
