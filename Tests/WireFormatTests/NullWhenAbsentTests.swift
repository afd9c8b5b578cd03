import Foundation
import Testing
import WireFormat

@Suite("Members written as null when absent")
struct NullWhenAbsentTests {
    private struct Output: Encodable {
        var name: String
        @NullWhenAbsent var handle: String?
        @NullWhenAbsent var count: Int?
        var note: String?
    }

    private func json(_ value: Output) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("An absent member is written as null; a plain optional is still left out")
    func absent() throws {
        #expect(
            try json(Output(name: "a", handle: nil, count: nil, note: nil))
                == #"{"count":null,"handle":null,"name":"a"}"#
        )
    }

    @Test("A present member is written as its value")
    func present() throws {
        let text = try json(Output(name: "a", handle: "alice.test", count: 0, note: "n"))
        #expect(text == #"{"count":0,"handle":"alice.test","name":"a","note":"n"}"#)
    }
}
