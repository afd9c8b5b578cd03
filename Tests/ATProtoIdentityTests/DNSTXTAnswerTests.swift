import ATProtoIdentity
import Testing

@Suite("TXT records are read from raw DNS answers with every bound checked")
struct DNSTXTAnswerTests {
    func name(_ text: String) -> [UInt8] {
        text.split(separator: ".").flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) } + [0]
    }

    func txt(_ strings: [String]) -> [UInt8] {
        strings.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
    }

    func message(_ answers: [(type: UInt16, data: [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = [0x12, 0x34, 0x81, 0x80, 0, 1, 0, UInt8(answers.count), 0, 0, 0, 0]
        bytes += name("_atproto.alice.test") + [0, 16, 0, 1]
        for answer in answers {
            bytes += [0xC0, 0x0C, UInt8(answer.type >> 8), UInt8(answer.type & 0xFF), 0, 1, 0, 0, 0x0E, 0x10]
            bytes += [UInt8(answer.data.count >> 8), UInt8(answer.data.count & 0xFF)] + answer.data
        }
        return bytes
    }

    @Test("each TXT record's strings are joined, and other record types are skipped")
    func records() throws {
        let bytes = message([
            (5, name("alias.example.com")),
            (16, txt(["did=did:plc:ewvi7nxzyoun6", "zhxrhs64oiz"])),
            (16, txt(["v=spf1 -all"])),
        ])
        #expect(try DNSTXTAnswer.records(in: bytes) == ["did=did:plc:ewvi7nxzyoun6zhxrhs64oiz", "v=spf1 -all"])
    }

    @Test("an answer with no records gives none")
    func empty() throws {
        #expect(try DNSTXTAnswer.records(in: message([])).isEmpty)
    }

    @Test("truncated or malformed messages throw instead of reading out of bounds")
    func malformed() {
        let whole = message([(16, txt(["did=did:plc:ewvi7nxzyoun6zhxrhs64oiz"]))])
        for length in [0, 5, 11, 20, whole.count - 1] {
            #expect(throws: DNSTXTAnswer.Malformed.self) { try DNSTXTAnswer.records(in: Array(whole.prefix(length))) }
        }
        let overrun = message([(16, [40] + Array("short".utf8))])
        #expect(throws: DNSTXTAnswer.Malformed.self) { try DNSTXTAnswer.records(in: overrun) }
        var badLabel = message([])
        badLabel[12] = 0x80
        #expect(throws: DNSTXTAnswer.Malformed.self) { try DNSTXTAnswer.records(in: badLabel) }
    }
}
