import Foundation
import Testing
import WireFormat

@Suite("JSON read by RFC 8259's grammar: where it stops being JSON, and names given twice")
struct JSONGrammarTests {
    @Test(
        "the first syntax error is placed by line and column, with what was expected",
        arguments: [
            ("{\"a\":1,}", "line 1, column 8: expected a key in double quotes, found `}`"),
            ("[1,\n 2,,]", "line 2, column 4: expected a value, found `,`"),
            ("{\"a\":01}", "line 1, column 7: expected `,` or `}`, found `1`"),
            (
                "\"secret\u{1}\"",
                "line 1, column 8: expected "
                    + #"the rest of the string, with line breaks and tabs written \n and \t, found a control character"#
            ),
        ]
    )
    func syntaxError(_ text: String, _ described: String) {
        #expect(JSONSyntaxError.find(in: Data(text.utf8))?.description == described)
    }

    @Test("a JSON text has no syntax error", arguments: ["{}", "[1, -2.5e3, true, null]", " \"é\\u00e9\" ", "0"])
    func valid(_ text: String) {
        #expect(JSONSyntaxError.find(in: Data(text.utf8)) == nil)
    }

    @Test(
        "a name given twice in one object is found, escapes read; names in other objects or arrays are not",
        arguments: [
            (#"{"a":1,"b":2,"a":3}"#, "a"),
            (#"{"x":{"k":1,"\u006b":2}}"#, "k"),
            (#"[{"k":1},{"k":2}]"#, nil),
            (#"{"k":{"k":1}}"#, nil),
            (#"{"e\u0301":1,"é":2}"#, nil),
            (#"{"a":1,"a":2"#, nil),
        ] as [(String, String?)]
    )
    func repeatedName(_ text: String, _ name: String?) {
        #expect(JSONRepeatedName.first(in: Data(text.utf8)) == name)
    }
}
