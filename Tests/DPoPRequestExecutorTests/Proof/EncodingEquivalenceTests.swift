import ATOAuthTesting
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Testing
import WireFormat

/// The hand-written fast paths (base64url, the proof's claims, `htu` of common URLs) against plain references.
@Suite("Fast encodings agree with plain references")
struct EncodingEquivalenceTests {
    @Test("base64url of 0 to 99 bytes equals Foundation's base64 with the URL alphabet and no padding")
    func base64URL() {
        for count in 0..<100 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ count) }
            let reference = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == reference)
            #expect(Base64URL.encode(Data(bytes)) == reference)
            #expect(Base64URL.encode(bytes.lazy.map { $0 }) == reference)
            #expect(Base64URL.decode(reference).map(Array.init) == bytes)
        }
    }

    @Test(
        "claims with characters JSON must escape decode to the values given",
        arguments: ["plain", "q\"uote", "back\\slash", "line\nfeed\r\t", "\u{01}\u{1F}\u{7F}", "é🙂", ""]
    )
    func escapedClaims(value: String) throws {
        let proof = try DPoPProofSigner(key: DPoPKey(), random: FixedRandomSource([[1, 2, 3]]))
            .proof(
                method: HTTPMethod(rawValue: "GET\(value)"),
                htu: "https://pds.example/\(value)",
                nonce: value,
                accessToken: "token\(value)",
                issuedAt: Date(timeIntervalSince1970: -12_345.5)
            )
        let claims = try ProofParts(proof).claims
        #expect(claims["jti"] as? String == "AQID")
        #expect(claims["htm"] as? String == "GET\(value)")
        #expect(claims["htu"] as? String == "https://pds.example/\(value)")
        #expect(claims["nonce"] as? String == value)
        #expect(claims["iat"] as? Int == -12_346)
        #expect(claims["ath"] as? String == DPoPProofSigner.accessTokenHash("token\(value)"))
    }

    @Test("the longest claims fit: every byte escaped, a 20-character iat, a nonce and an ath")
    func longestClaims() throws {
        let control = String(repeating: "\u{01}", count: 50)
        let proof = try DPoPProofSigner(key: DPoPKey())
            .proof(
                method: HTTPMethod(rawValue: control),
                htu: control,
                nonce: control,
                accessToken: control,
                issuedAt: Date(timeIntervalSince1970: -9_200_000_000_000_000_000)
            )
        let claims = try ProofParts(proof).claims
        #expect(claims["htu"] as? String == control)
        #expect(claims["nonce"] as? String == control)
        #expect((claims["iat"] as? NSNumber)?.int64Value == -9_200_000_000_000_000_000)
    }

    @Test("htu and origin agree with the reference reading on a grid of URL shapes")
    func htuGrid() throws {
        let schemes = ["http://", "HTTPS://", "ftp://"]
        let users = ["", "u:p@"]
        let hosts = ["example.com", "EXAMPLE.Com", "127.0.0.1", "[::1]", "%41b.com", "xn--e1a.com", "", "a.com."]
        let ports = ["", ":", ":80", ":443", ":0443", ":8080", ":123456"]
        let paths = ["", "/", "/a/b", "/p%20q", "/a/../b", "//x"]
        let tails = ["", "?q=1#f", "#f"]
        var checked = 0
        for scheme in schemes {
            for user in users {
                for host in hosts {
                    for port in ports {
                        for path in paths {
                            for tail in tails {
                                guard let url = URL(string: scheme + user + host + port + path + tail) else { continue }
                                let expected = Self.referenceHTU(url)
                                #expect((try? DPoPTarget.htu(for: url)) == expected, "\(url)")
                                #expect((try? DPoPTarget.origin(of: url)) == expected.map(Self.origin), "\(url)")
                                checked += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(checked > 1000)
    }

    /// The `htu` read with `URLComponents`, the host as written, the implementation before the fast path; none for a
    /// scheme other than http and https.
    private static func referenceHTU(_ url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), var host = url.host(percentEncoded: true)?.lowercased(),
            !host.isEmpty
        else { return nil }
        if host.contains(":") { host = "[\(host)]" }
        var result = scheme + "://" + host
        guard let defaultPort = ["https": 443, "http": 80][scheme] else { return nil }
        if let port = components.port, port != defaultPort { result += ":\(port)" }
        return result + (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
    }

    private static func origin(_ htu: String) -> String {
        guard let schemeEnd = htu.range(of: "://"), let pathStart = htu[schemeEnd.upperBound...].firstIndex(of: "/")
        else { return htu }
        return String(htu[..<pathStart])
    }

    @Test(
        "htu known answers: punycode hosts stay punycode, IPv6 keeps its brackets, defaults and user info go",
        arguments: [
            ("http://XN--E1A.com/a?q#f", "http://xn--e1a.com/a"),
            ("https://pds.xn--80ak6aa92e.com:443/xrpc/x", "https://pds.xn--80ak6aa92e.com/xrpc/x"),
            ("https://[::1]:8443/x", "https://[::1]:8443/x"),
            ("http://u:p@Example.COM:80", "http://example.com/"),
        ]
    )
    func htuKnownAnswers(_ url: String, _ expected: String) throws {
        #expect(try DPoPTarget.htu(for: try #require(URL(string: url))) == expected)
    }
}
