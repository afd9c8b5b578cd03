import Foundation
import Testing

@testable import HTTPTransport

@Suite("The -v log of HTTP exchanges")
struct LoggingTransportTests {
    @Test("credential headers are redacted and server header values lose C0, C1 and bidi controls")
    func describe() {
        let headers: HTTPHeaders = [
            "Authorization": "DPoP secret-token", "DPoP": "eyJ.secret.proof", "Location": "x://cb?code=secret",
            "DPoP-Nonce": "nonce\u{1B}[2J\u{9B}31m\u{202E}evil", "Content-Type": "application/json",
        ]
        let text = LoggingTransport.describe(headers)
        #expect(!text.contains("secret"))
        #expect(text.contains("Authorization: <redacted>") && text.contains("DPoP: <redacted>"))
        #expect(text.contains("Content-Type: application/json"))
        #expect(text.contains("DPoP-Nonce: nonce"))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(!text.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
    }
}
