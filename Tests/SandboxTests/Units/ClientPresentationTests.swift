import Foundation
import Testing

@testable import Sandbox

@Suite("What the pages show of a client document, checked")
struct ClientPresentationTests {
    @Test("a name is kept on one line without control characters, and cut to 100 characters")
    func names() throws {
        #expect(ClientPresentation.checkedName("My App") == "My App")
        #expect(ClientPresentation.checkedName("  My\nApp\u{7}\tNow ") == "My App Now")
        #expect(ClientPresentation.checkedName(" \n\u{0} ") == nil)
        let long = try #require(ClientPresentation.checkedName(String(repeating: "é", count: 300)))
        #expect(long.count == ClientPresentation.maximumNameLength)
        #expect(long.hasSuffix("…"))
        #expect(ClientPresentation(metadata: ["client_name": 42]).name == nil)
    }

    @Test(
        "an https address, or http on loopback, is taken as a logo or home page",
        arguments: [
            "https://myapp.example.app/logo.png", "https://myapp.example.app:8443/a/logo.svg?v=2",
            "http://127.0.0.1:8080/logo.png", "http://[::1]:8080/logo.png",
        ]
    )
    func acceptedAddresses(_ address: String) {
        #expect(ClientPresentation.checkedURI(address) == address)
        let presentation = ClientPresentation(metadata: ["logo_uri": address, "client_uri": address])
        #expect(presentation.logoURI == address)
        #expect(presentation.homeURI == address)
    }

    @Test(
        "any other address is left out",
        arguments: [
            "javascript:alert(1)", "JAVASCRIPT:alert(1)", "data:image/png;base64,iVBORw0KGgo=",
            "http://myapp.example.app/logo.png", "http://localhost/logo.png", "ftp://myapp.example.app/logo.png",
            "https://user:secret@myapp.example.app/logo.png", "https:///logo.png", "//myapp.example.app/logo.png",
            "logo.png", "https://myapp.example.app/lo go.png", "https://myapp.example.app/\"onerror=\"alert(1)",
            "https://my;app.example.app/logo.png", "https://myapp.example.app/<script>",
            "https://myapp.example.app/" + String(repeating: "a", count: 2100), "https://myapp.example.app/é.png",
        ]
    )
    func refusedAddresses(_ address: String) {
        #expect(ClientPresentation.checkedURI(address) == nil)
        let presentation = ClientPresentation(metadata: ["logo_uri": address, "client_uri": address])
        #expect(presentation.logoURI == nil)
        #expect(presentation.homeURI == nil)
    }

    @Test("the logo's origin is what the page's Content-Security-Policy lets images load from")
    func logoOrigin() {
        let https = ClientPresentation(metadata: ["logo_uri": "https://cdn.example.app:8443/a/logo.png?v=2"])
        #expect(https.logoOrigin == "https://cdn.example.app:8443")
        let loopback = ClientPresentation(metadata: ["logo_uri": "http://[::1]:8080/logo.png"])
        #expect(loopback.logoOrigin == "http://[::1]:8080")
        #expect(ClientPresentation().logoOrigin == nil)
    }
}
