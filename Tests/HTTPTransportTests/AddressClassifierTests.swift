import HTTPTransport
import Testing

@Suite("Addresses and host names are classified before any fetch")
struct AddressClassifierTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let literal: String
        let category: AddressCategory
        var testDescription: String { "\(literal) is \(category)" }
    }

    static let ipv4: [Row] = [
        Row(literal: "1.1.1.1", category: .global),
        Row(literal: "93.184.216.34", category: .global),
        Row(literal: "0.0.0.0", category: .unspecified),
        Row(literal: "0.1.2.3", category: .unspecified),
        Row(literal: "10.0.0.1", category: .privateNetwork),
        Row(literal: "10.255.255.255", category: .privateNetwork),
        Row(literal: "100.63.255.255", category: .global),
        Row(literal: "100.64.0.1", category: .sharedAddressSpace),
        Row(literal: "100.127.255.254", category: .sharedAddressSpace),
        Row(literal: "100.128.0.1", category: .global),
        Row(literal: "127.0.0.1", category: .loopback),
        Row(literal: "127.255.0.9", category: .loopback),
        Row(literal: "169.254.169.254", category: .linkLocal),
        Row(literal: "172.15.255.255", category: .global),
        Row(literal: "172.16.0.1", category: .privateNetwork),
        Row(literal: "172.31.255.255", category: .privateNetwork),
        Row(literal: "172.32.0.1", category: .global),
        Row(literal: "192.0.0.8", category: .reserved),
        Row(literal: "192.0.2.10", category: .documentation),
        Row(literal: "192.88.99.1", category: .reserved),
        Row(literal: "192.168.1.1", category: .privateNetwork),
        Row(literal: "198.18.0.1", category: .benchmarking),
        Row(literal: "198.19.255.255", category: .benchmarking),
        Row(literal: "198.20.0.1", category: .global),
        Row(literal: "198.51.100.7", category: .documentation),
        Row(literal: "203.0.113.200", category: .documentation),
        Row(literal: "224.0.0.251", category: .multicast),
        Row(literal: "239.255.255.250", category: .multicast),
        Row(literal: "240.0.0.1", category: .reserved),
        Row(literal: "255.255.255.255", category: .reserved),
    ]

    static let ipv6: [Row] = [
        Row(literal: "2606:4700:4700::1111", category: .global),
        Row(literal: "2a00:1450:4001:80b::200e", category: .global),
        Row(literal: "::", category: .unspecified),
        Row(literal: "::1", category: .loopback),
        Row(literal: "[::1]", category: .loopback),
        Row(literal: "::ffff:127.0.0.1", category: .loopback),
        Row(literal: "::ffff:10.1.2.3", category: .privateNetwork),
        Row(literal: "::ffff:169.254.1.1", category: .linkLocal),
        Row(literal: "::ffff:1.1.1.1", category: .global),
        Row(literal: "::10.1.2.3", category: .reserved),
        Row(literal: "::127.0.0.1", category: .reserved),
        Row(literal: "::1.1.1.1", category: .reserved),
        Row(literal: "64:ff9b::10.0.0.1", category: .privateNetwork),
        Row(literal: "64:ff9b::1.1.1.1", category: .global),
        Row(literal: "64:ff9b:1::1", category: .reserved),
        Row(literal: "100::1", category: .reserved),
        Row(literal: "2001::1", category: .reserved),
        Row(literal: "2001:2::1", category: .benchmarking),
        Row(literal: "2001:db8::1", category: .documentation),
        Row(literal: "2002:c0a8:0101::1", category: .privateNetwork),
        Row(literal: "2002:0101:0101::1", category: .global),
        Row(literal: "3fff:0fff::1", category: .documentation),
        Row(literal: "3fff:1000::1", category: .global),
        Row(literal: "fc00::1", category: .uniqueLocal),
        Row(literal: "fd12:3456:789a::1", category: .uniqueLocal),
        Row(literal: "fe80::1", category: .linkLocal),
        Row(literal: "febf::1", category: .linkLocal),
        Row(literal: "fec0::1", category: .siteLocal),
        Row(literal: "ff02::1", category: .multicast),
        Row(literal: "4000::1", category: .reserved),
    ]

    @Test("IPv4 literals fall into their special-purpose ranges", arguments: ipv4)
    func ipv4Literal(_ row: Row) throws {
        let address = try #require(IPAddress(row.literal))
        #expect(address.family == .v4)
        #expect(address.category == row.category)
    }

    @Test("IPv6 literals fall into their special-purpose ranges", arguments: ipv6)
    func ipv6Literal(_ row: Row) throws {
        let address = try #require(IPAddress(row.literal))
        #expect(address.family == .v6)
        #expect(address.category == row.category)
    }

    @Test(
        "loose or malformed forms are not literals",
        arguments: ["127.1", "0x7f.0.0.1", "017.0.0.1", "1.2.3", "1.2.3.256", "fe80::1%eth0", "::g", "", "example.com"]
    )
    func notLiteral(_ text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test("addresses print in their usual form")
    func printing() throws {
        #expect(try #require(IPAddress("192.0.2.1")).description == "192.0.2.1")
        #expect(try #require(IPAddress("2001:0db8:0000::0001")).description == "2001:db8::1")
        #expect(IPAddress(bytes: [1, 2, 3]) == nil)
    }

    @Test(
        "host names are classified from their text",
        arguments: [
            ("localhost", HostKind.localhost), ("LOCALHOST.", .localhost), ("pds.example.com", .domainName),
            ("bsky.social", .domainName), ("alice.test", .domainName), ("intranet", .specialUseName),
            ("printer.local", .specialUseName), ("a.localhost", .specialUseName), ("db.internal", .specialUseName),
            ("nas.home.arpa", .specialUseName), ("x.onion", .specialUseName), ("x.invalid", .specialUseName),
            ("x.alt", .specialUseName), ("", .invalid), ("b%C3%BCcher.tld", .invalid), (".example.com", .invalid),
            ("a..b", .invalid), ("under_score.example.com", .domainName),
        ] as [(String, HostKind)]
    )
    func names(_ host: String, _ kind: HostKind) {
        #expect(HostKind.classify(host) == kind)
    }

    @Test("loopback hosts are localhost, 127.0.0.0/8 and ::1 only")
    func loopbackHosts() throws {
        #expect(HostKind.classify("127.0.0.1") == .address(try #require(IPAddress("127.0.0.1"))))
        #expect(HostKind.classify("[::1]") == .address(try #require(IPAddress("::1"))))
        #expect(HostKind.classify("localhost").isLoopback)
        #expect(HostKind.classify("127.8.9.10").isLoopback)
        #expect(HostKind.classify("::1").isLoopback)
        #expect(!HostKind.classify("10.0.0.1").isLoopback)
        #expect(!HostKind.classify("pds.test").isLoopback)
        #expect(!HostKind.classify("a.localhost").isLoopback)
    }
}
