import Foundation
import Testing
import WireFormat

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
            "Thu, 29 Feb 1900 00:00:00 GMT", "Sun, 06 Nov 1994 08:49:37 GMT ", "Xyz, 06 Nov 1994 08:49:37 GMT",
            "Sun, +6 Nov 1994 08:49:37 GMT",
        ]
    )
    func refused(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test("Dates are written in IMF-fixdate (RFC 9110 §5.6.7), rounded down, held to the years 1 to 9999")
    func httpDate() {
        let vectors: [(TimeInterval, String)] = [
            (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
            (784_111_777.9, "Sun, 06 Nov 1994 08:49:37 GMT"),
            (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
            (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
            (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
            (1e300, "Fri, 31 Dec 9999 23:59:59 GMT"),
            (-1e300, "Mon, 01 Jan 0001 00:00:00 GMT"),
            (.nan, "Thu, 01 Jan 1970 00:00:00 GMT"),
        ]
        for (seconds, text) in vectors {
            #expect(HTTPDate.format(Date(timeIntervalSince1970: seconds)) == text, "\(seconds)")
        }
    }

    @Test("What is written reads back as the same second, in every era the form can write")
    func roundTrip() throws {
        for seconds in stride(from: -62_135_596_800.0, through: 253_402_300_799, by: 86_399 * 997 + 1) {
            let text = HTTPDate.format(Date(timeIntervalSince1970: seconds))
            #expect(HTTPDate.parse(text)?.timeIntervalSince1970 == seconds, "\(text)")
        }
    }
}
