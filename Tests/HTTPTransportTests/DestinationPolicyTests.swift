import ATOAuthTesting
import Failures
import Foundation
import HTTPTransport
import Testing

@Suite("The destination policy allows https to public hosts, and loopback only in development")
struct DestinationPolicyTests {
    let production = DestinationPolicy()
    let development = DestinationPolicy(allowHTTPLoopback: true)

    @Test(
        "production accepts https to public names and addresses",
        arguments: [
            "https://pds.example.com/xrpc", "https://1.1.1.1/", "https://[2606:4700::1111]:8443/",
            "HTTPS://PDS.Example.com",
        ]
    )
    func productionAccepts(_ text: String) throws {
        #expect(throws: Never.self) { try production.checkBeforeResolving(try url(text)) }
    }

    @Test(
        "production refuses everything else before any look-up",
        arguments: [
            "http://pds.example.com/", "ftp://pds.example.com/", "file:///etc/passwd", "https://localhost/",
            "http://localhost:2583/", "https://127.0.0.1/", "https://[::1]/", "https://10.0.0.1/",
            "https://172.16.5.4/", "https://192.168.0.1/", "https://100.64.0.1/", "https://169.254.169.254/latest",
            "https://0.0.0.0/", "https://[fd00::1]/", "https://[fe80::1]/", "https://[::ffff:10.0.0.1]/",
            "https://[::ffff:127.0.0.1]/", "https://printer.local/", "https://intranet/",
            "https://user:pw@pds.example.com/",
            "https://198.18.0.1/", "https://192.0.2.1/", "https://224.0.0.1/",
        ]
    )
    func productionRefuses(_ text: String) throws {
        let error = #expect(throws: FetchError.self) { try production.checkBeforeResolving(try url(text)) }
        #expect(error?.category == .securityCheckFailed)
        // Only a refusal the development option would lift says to give it.
        let developmentAllows = (try? development.checkBeforeResolving(try url(text))) != nil
        #expect(error?.remedy == (developmentAllows ? .allowLoopbackServer : Remedy.none), "\(text)")
    }

    @Test(
        "development accepts http and https to loopback hosts",
        arguments: [
            "http://localhost:2583/", "http://127.0.0.1:2583/", "http://[::1]:2583/", "https://localhost:8443/",
            "http://127.1.2.3/", "https://pds.example.com/",
        ]
    )
    func developmentAccepts(_ text: String) throws {
        #expect(throws: Never.self) { try development.checkBeforeResolving(try url(text)) }
    }

    @Test(
        "development still refuses http to other hosts and every non-loopback private address",
        arguments: [
            "http://pds.example.com/", "http://10.0.0.1/", "https://10.0.0.1/", "http://192.168.1.1:2583/",
            "https://[fd00::1]/", "http://[fe80::1]/", "http://pds.test/", "http://a.localhost/", "http://1.1.1.1/",
        ]
    )
    func developmentRefuses(_ text: String) throws {
        let error = #expect(throws: FetchError.self) { try development.checkBeforeResolving(try url(text)) }
        #expect(error?.remedy == Remedy.none)
    }

    @Test(
        "a port outside 1–65535, or too large to parse, is refused by the policy and by origin normalization",
        arguments: [
            "https://pds.example.com:70000/", "https://pds.example.com:99999999999999999999/",
            "https://pds.example.com:0/", "https://pds.example.com:/", "https://[2606:4700::1111]:65536/",
            "https://user@pds.example.com:99999999999999999999",
        ]
    )
    func unusablePort(_ text: String) throws {
        let target = try url(text)
        #expect(!target.hasUsablePort)
        let error = #expect(throws: FetchError.self) { try development.checkBeforeResolving(target) }
        #expect(error?.category == .securityCheckFailed)
        #expect(throws: OriginURL.Problem.self) { try OriginURL.normalize(target, allowHTTPLoopback: true) }
    }

    @Test(
        "ports in 1–65535, or none, are usable",
        arguments: [
            "https://pds.example.com/", "https://pds.example.com:1/", "https://[::1]:65535/x", "https://a.b:443",
        ]
    )
    func usablePort(_ text: String) throws {
        #expect(try url(text).hasUsablePort)
    }

    @Test("a public name must resolve to public addresses only, even in development")
    func resolvedNames() throws {
        let public1 = try #require(IPAddress("1.1.1.1"))
        let loopback = try #require(IPAddress("127.0.0.1"))
        let privateAddress = try #require(IPAddress("10.1.1.1"))
        #expect(throws: Never.self) { try production.checkResolved(.domainName, addresses: [public1]) }
        #expect(throws: FetchError.self) {
            try production.checkResolved(.domainName, addresses: [public1, privateAddress])
        }
        #expect(throws: FetchError.self) { try development.checkResolved(.domainName, addresses: [loopback]) }
        #expect(throws: FetchError.self) { try production.checkResolved(.domainName, addresses: []) }
    }

    @Test("localhost must resolve to loopback addresses only")
    func resolvedLocalhost() throws {
        let loopback = try #require(IPAddress("127.0.0.1"))
        let loopback6 = try #require(IPAddress("::1"))
        let privateAddress = try #require(IPAddress("192.168.1.1"))
        #expect(throws: Never.self) { try development.checkResolved(.localhost, addresses: [loopback, loopback6]) }
        #expect(throws: FetchError.self) {
            try development.checkResolved(.localhost, addresses: [loopback, privateAddress])
        }
    }
}
