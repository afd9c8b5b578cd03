import Testing
import WireFormat

@Suite("The Host names of a loopback server")
struct LoopbackAuthorityTests {
    @Test("127.0.0.1, localhost and [::1] with the port, in any case; the port left out only when it is 80")
    func names() {
        for host in ["127.0.0.1:8080", "localhost:8080", "LocalHost:8080", "[::1]:8080"] {
            #expect(LoopbackAuthority.names(host, port: 8080), "\(host)")
        }
        for host in ["127.0.0.1", "127.0.0.1:8081", "attacker.example:8080", "127.0.0.2:8080", "::1:8080", ""] {
            #expect(!LoopbackAuthority.names(host, port: 8080), "\(host)")
        }
        #expect(!LoopbackAuthority.names(nil, port: 8080))
        for host in ["127.0.0.1", "localhost", "[::1]", "127.0.0.1:80"] {
            #expect(LoopbackAuthority.names(host, port: 80), "\(host)")
        }
        #expect(!LoopbackAuthority.names("attacker.example", port: 80))
    }
}
