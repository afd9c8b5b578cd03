import ATProtoSyntax
import Testing

@Suite("Identifier syntax follows the AT Protocol interop vectors")
struct SyntaxVectorTests {
    @Test(
        "every valid handle in the vectors is accepted",
        arguments: try InteropVectors.values("handle_syntax_valid.txt")
    )
    func validHandle(_ value: String) {
        #expect(Handle.isValid(value))
    }

    @Test(
        "every invalid handle in the vectors is refused",
        arguments: try InteropVectors.values("handle_syntax_invalid.txt")
    )
    func invalidHandle(_ value: String) {
        #expect(!Handle.isValid(value))
        #expect(throws: SyntaxError.self) { try Handle(validating: value) }
    }

    @Test("every valid DID in the vectors is accepted", arguments: try InteropVectors.values("did_syntax_valid.txt"))
    func validDID(_ value: String) {
        #expect(DID.isValid(value))
    }

    @Test("every invalid DID in the vectors is refused", arguments: try InteropVectors.values("did_syntax_invalid.txt"))
    func invalidDID(_ value: String) {
        #expect(!DID.isValid(value))
        #expect(throws: SyntaxError.self) { try DID(validating: value) }
    }

    @Test("every valid NSID in the vectors is accepted", arguments: try InteropVectors.values("nsid_syntax_valid.txt"))
    func validNSID(_ value: String) {
        #expect(NSID.isValid(value))
    }

    @Test(
        "every invalid NSID in the vectors is refused",
        arguments: try InteropVectors.values("nsid_syntax_invalid.txt")
    )
    func invalidNSID(_ value: String) {
        #expect(!NSID.isValid(value))
    }

    @Test(
        "every valid at-identifier in the vectors is accepted",
        arguments: try InteropVectors.values("atidentifier_syntax_valid.txt")
    )
    func validATIdentifier(_ value: String) throws {
        #expect(ATIdentifier.isValid(value))
        #expect(try ATIdentifier(validating: value).description.lowercased() == value.lowercased())
    }

    @Test(
        "every invalid at-identifier in the vectors is refused",
        arguments: try InteropVectors.values("atidentifier_syntax_invalid.txt")
    )
    func invalidATIdentifier(_ value: String) {
        #expect(!ATIdentifier.isValid(value))
        #expect(throws: SyntaxError.self) { try ATIdentifier(validating: value) }
    }

    @Test(
        "an identifier as people type it may carry one leading @, and reads as the same identifier",
        arguments: try InteropVectors.values("atidentifier_syntax_valid.txt")
    )
    func typedATIdentifier(_ value: String) throws {
        #expect(try ATIdentifier(typed: "@" + value) == ATIdentifier(validating: value))
        #expect(try ATIdentifier(typed: value) == ATIdentifier(validating: value))
        #expect(throws: SyntaxError.self) { try ATIdentifier(typed: "@@" + value) }
    }

    @Test("the vector files are read whole, with their deliberate spaces")
    func vectorsAreNotTrimmed() throws {
        let invalid = try InteropVectors.values("handle_syntax_invalid.txt")
        #expect(invalid.contains(" john.test"))
        #expect(invalid.contains("john.test "))
        let counts = [
            "handle_syntax_valid.txt": 71, "handle_syntax_invalid.txt": 48, "did_syntax_valid.txt": 24,
            "did_syntax_invalid.txt": 18, "nsid_syntax_valid.txt": 25, "nsid_syntax_invalid.txt": 27,
            "atidentifier_syntax_valid.txt": 11, "atidentifier_syntax_invalid.txt": 22,
        ]
        for (file, count) in counts {
            #expect(try InteropVectors.values(file).count == count, "\(file)")
        }
    }
}
