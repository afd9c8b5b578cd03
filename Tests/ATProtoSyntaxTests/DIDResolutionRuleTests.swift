import ATProtoSyntax
import Testing

@Suite("Only did:plc and bare-host did:web are resolved")
struct DIDResolutionRuleTests {
    @Test("a did:plc of 24 base32 characters resolves through the PLC directory")
    func plc() throws {
        #expect(try DID(validating: "did:plc:ewvi7nxzyoun6zhxrhs64oiz").resolutionTarget() == .plc)
    }

    @Test("a did:web names its host, and a port only for localhost")
    func web() throws {
        #expect(try DID(validating: "did:web:example.com").resolutionTarget() == .web(host: "example.com", port: nil))
        #expect(
            try DID(validating: "did:web:localhost%3A1234").resolutionTarget() == .web(host: "localhost", port: 1234)
        )
        #expect(try DID(validating: "did:web:localhost").resolutionTarget() == .web(host: "localhost", port: nil))
    }

    @Test(
        "other DIDs are refused as usage errors",
        arguments: [
            "did:plc:ewvi7nxzyoun6zhxrhs64oi", "did:plc:ewvi7nxzyoun6zhxrhs64oiz1", "did:plc:EWVI7NXZYOUN6ZHXRHS64OIZ",
            "did:plc:ewvi7nxzyoun6zhxrhs64oi0", "did:web:example.com%3A8443", "did:web:example.com:path",
            "did:web:localhost%3A0", "did:web:localhost%3A99999", "did:web:127.0.0.1", "did:web:-bad.com",
            "did:key:zQ3shZc2QzApp2oymGvQbzP8eKheVshBHbU4ZYjeXqwSKEn6N", "did:method:val",
        ]
    )
    func refused(_ value: String) throws {
        let did = try DID(validating: value)
        let error = #expect(throws: SyntaxError.self) { try did.resolutionTarget() }
        #expect(error?.expected == .did)
    }

    @Test("a DID keeps its case and exposes its method")
    func parts() throws {
        let did = try DID(validating: "did:method:VAL:two")
        #expect(did.rawValue == "did:method:VAL:two")
        #expect(did.method == DID.Method(rawValue: "method"))
        #expect(did.methodSpecificIdentifier == "VAL:two")
    }
}
