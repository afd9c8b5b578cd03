import ATProtoIdentity
import Testing

@Suite("A failed resolution's advice names who can fix it")
struct IdentityErrorAdviceTests {
    @Test(
        "a server at fault (5xx, 429) means later; another answer means the handle or DID",
        arguments: [
            (503, "The server had a problem; try again later."),
            (429, "The server is limiting how often it is asked; try again later."),
            (404, "Check the handle's spelling"),
        ]
    )
    func advice(status: Int, advice: String) {
        let handle = IdentityError.handleResolutionFailed("no DID", status: status, handle: "alice.test")
        #expect(handle.description.contains(advice), "\(handle.description)")
        let did = IdentityError.didResolutionFailed("no document", status: status, did: "did:plc:abc")
        let didAdvice = status == 404 ? "Check the DID" : advice
        #expect(did.description.contains(didAdvice), "\(did.description)")
    }
}
