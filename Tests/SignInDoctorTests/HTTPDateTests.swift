import Foundation
import Testing

@testable import SignInDoctor

@Suite("IMF-fixdate, the Date header's form (RFC 9110 §5.6.7)")
struct HTTPDateTests {
    @Test("The RFC's example reads as its instant")
    func example() throws {
        let date = try #require(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(date.timeIntervalSince1970 == 784_111_777)
    }

    @Test(
        "Other forms and impossible dates are refused",
        arguments: [
            "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT", "", "Sun, 6 Nov 1994 08:49:37 GMT",
        ]
    )
    func refused(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
