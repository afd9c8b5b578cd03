import Foundation
import Testing
import WireFormat

@testable import Gateway

@Suite("The Date of the gateway's own answers")
struct DateHeaderTests {
    @Test("one text per second, the IMF-fixdate of that second")
    func perSecond() {
        let dates = DateHeader()
        let start = Date(timeIntervalSince1970: 1_700_000_000.25)
        #expect(dates.header(for: start) == "Tue, 14 Nov 2023 22:13:20 GMT")
        #expect(dates.header(for: start.addingTimeInterval(0.7)) == "Tue, 14 Nov 2023 22:13:20 GMT")
        #expect(dates.header(for: start.addingTimeInterval(0.75)) == "Tue, 14 Nov 2023 22:13:21 GMT")
        #expect(dates.header(for: start.addingTimeInterval(-1)) == "Tue, 14 Nov 2023 22:13:19 GMT")
    }

    @Test("a date the cache cannot key is written as HTTPDate writes it", arguments: [Double.infinity, -1e300, 1e300])
    func unusual(_ interval: Double) {
        let date = Date(timeIntervalSince1970: interval)
        #expect(DateHeader().header(for: date) == HTTPDate.format(date))
    }
}
