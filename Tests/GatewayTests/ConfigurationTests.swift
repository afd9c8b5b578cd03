import Failures
import Foundation
import Gateway
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Gateway settings and token")
struct ConfigurationTests {
    private func configuration(
        _ listen: GatewayConfiguration.Listen,
        token: String = GatewayToken.generate()
    )
        -> GatewayConfiguration
    {
        GatewayConfiguration(listen: listen, token: token, spoolDirectory: URL(fileURLWithPath: "/nonexistent"))
    }

    @Test(
        "loopback addresses are accepted",
        arguments: ["127.0.0.1", "127.1.2.3", "localhost", "LocalHost", "::1", "[::1]", "0:0:0:0:0:0:0:1"]
    )
    func loopback(_ host: String) throws {
        try configuration(.tcp(host: host, port: 8787)).validate()
    }

    @Test(
        "any other address is refused, saying why",
        arguments: ["0.0.0.0", "192.168.1.2", "::", "::ffff:127.0.0.1", "example.com", "127.0.0.1.example.com", ""]
    )
    func notLoopback(_ host: String) {
        let error = #expect(throws: GatewayError.self) { try configuration(.tcp(host: host, port: 8787)).validate() }
        #expect(error?.code == .notLoopback)
        #expect(error?.category == .usage)
    }

    @Test("a port out of range, a short token, a socket path too long and a zero limit are refused")
    func otherSettings() {
        #expect(throws: GatewayError.self) { try configuration(.tcp(host: "127.0.0.1", port: 65_536)).validate() }
        #expect(throws: GatewayError.self) {
            try configuration(.tcp(host: "127.0.0.1", port: 1), token: "short").validate()
        }
        #expect(throws: GatewayError.self) {
            try configuration(.tcp(host: "127.0.0.1", port: 1), token: String(repeating: "a", count: 20) + " b")
                .validate()
        }
        #expect(throws: GatewayError.self) {
            try configuration(.unixSocket(path: "/tmp/" + String(repeating: "s", count: 120))).validate()
        }
        var zero = configuration(.tcp(host: "127.0.0.1", port: 0))
        zero.maximumConcurrentRequests = 0
        #expect(throws: GatewayError.self) { try zero.validate() }
    }

    @Test("the listen address reads as a URL")
    func readsAsURL() {
        #expect(GatewayConfiguration.Listen.tcp(host: "localhost", port: 8787).description == "http://127.0.0.1:8787")
        #expect(GatewayConfiguration.Listen.tcp(host: "::1", port: 8787).description == "http://[::1]:8787")
        #expect(GatewayConfiguration.Listen.unixSocket(path: "/run/gw.sock").description == "unix:/run/gw.sock")
    }

    @Test("a token is 43 base64url characters, new each time, saved alone on one line in a 0600 file")
    func token() throws {
        let first = GatewayToken.generate()
        #expect(first.count == 43)
        #expect(first.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(GatewayToken.generate() != first)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gateway-token-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("gateway-token")
        try GatewayToken.save(first, to: file)
        let second = GatewayToken.generate()
        try GatewayToken.save(second, to: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == second + "\n")
        var status = stat()
        #expect(lstat(file.path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["gateway-token"])
    }
}
