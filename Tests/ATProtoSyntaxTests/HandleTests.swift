import ATProtoSyntax
import Foundation
import Testing

@Suite("Handles are normalized and checked before resolution")
struct HandleTests {
    @Test("a handle is lowercased")
    func lowercases() throws {
        #expect(try Handle(validating: "Alice.Example.COM").rawValue == "alice.example.com")
    }

    @Test("an invalid handle is a usage error naming the problem")
    func invalidIsUsage() {
        let error = #expect(throws: SyntaxError.self) { try Handle(validating: "john..test") }
        #expect(error?.expected == .handle)
        #expect(error?.description.contains("empty") == true)
    }

    @Test("an invalid handle is quoted without controls, bidi characters or line separators")
    func quotedSafely() {
        let error = #expect(throws: SyntaxError.self) {
            try Handle(validating: "evil\u{2028}\u{2029}\u{202E}\u{1B}[2J.test")
        }
        let description = error?.description ?? ""
        #expect(description.contains("evil[2J.test"), "\(description)")
        #expect(!description.unicodeScalars.contains { [0x2028, 0x2029, 0x202E, 0x1B].contains($0.value) })
    }

    @Test(
        "handles under a disallowed top-level domain are valid syntax but not resolvable",
        arguments: [
            "laptop.alt", "laptop.arpa", "a.example", "svc.internal", "x.invalid", "laptop.local", "a.localhost",
            "expyuzz4wqqyqhjn.onion", "handle.invalid",
        ]
    )
    func disallowed(_ value: String) throws {
        let handle = try Handle(validating: value)
        #expect(!handle.isResolvable)
        let error = #expect(throws: SyntaxError.self) { try handle.checkResolvable() }
        #expect(error?.expected == .handle)
    }

    @Test(
        "the sandbox's .test handles and ordinary handles are resolvable",
        arguments: ["alice.test", "bob.bsky.social"]
    )
    func resolvable(_ value: String) throws {
        #expect(try Handle(validating: value).isResolvable)
    }

    @Test("a handle encodes and decodes as a string, checking it")
    func codable() throws {
        let data = try JSONEncoder().encode([try Handle(validating: "alice.test")])
        #expect(String(decoding: data, as: UTF8.self) == #"["alice.test"]"#)
        #expect(try JSONDecoder().decode([Handle].self, from: data).first?.rawValue == "alice.test")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([Handle].self, from: Data(#"["-x.test"]"#.utf8))
        }
    }

    @Test("an NSID splits into authority and name")
    func nsidParts() throws {
        let nsid = try NSID(validating: "com.atproto.identity.resolveHandle")
        #expect(nsid.authority == "identity.atproto.com")
        #expect(nsid.name == "resolveHandle")
    }
}
