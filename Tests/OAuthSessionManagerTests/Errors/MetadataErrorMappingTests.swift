import Failures
import OAuthMetadata
import OAuthSessionManager
import Testing

/// A sign-in turns a `MetadataError` into the `SessionError` of the same code, category and words, so the CLI's exit
/// codes and messages stay those of docs/errors.md.
@Suite("A metadata or client key failure keeps its code, category and words as a SessionError")
struct MetadataErrorMappingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let metadata: MetadataError
        let session: SessionError.Code
        var testDescription: String { "\(metadata.code) → \(session)" }
    }

    static let cases = [
        Case(metadata: .invalidClientMetadata(field: "scope", reason: "no atproto"), session: .invalidClientMetadata),
        Case(
            metadata: .invalidProtectedResourceMetadata("no server", field: "resource"),
            session: .invalidProtectedResourceMetadata
        ),
        Case(metadata: .invalidAuthorizationServerMetadata("no PAR"), session: .invalidAuthorizationServerMetadata),
        Case(metadata: .invalidInput("The client key is not a P-256 key."), session: .invalidInput),
        Case(metadata: .storedKeyUnreadable("the client key set is damaged"), session: .storedSessionUnreadable),
    ]

    @Test("each metadata failure maps to its session failure", arguments: cases)
    func mapped(_ sample: Case) {
        let error = SessionError(sample.metadata)
        #expect(error.code == sample.session)
        #expect(error.category == sample.metadata.category)
        #expect(error.origin == sample.metadata.origin)
        #expect(error.field == sample.metadata.field)
        #expect(error.description == sample.metadata.description)
    }

    @Test("the session error's own constructors say what the metadata error says")
    func constructors() {
        let direct = SessionError.invalidClientMetadata(field: "scope", reason: "no atproto")
        #expect(direct == SessionError(.invalidClientMetadata(field: "scope", reason: "no atproto")))
        #expect(
            direct.description == "The client configuration is invalid: scope: no atproto. Fix the client metadata."
        )
    }
}
