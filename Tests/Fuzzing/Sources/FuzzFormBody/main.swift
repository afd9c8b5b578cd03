// `application/x-www-form-urlencoded` bodies and queries (WHATWG URL §5): the strict parser that reads callback
// queries and the sandbox's PAR and token requests, and the writer whose output it must read back unchanged; the
// same text as an HTTP `Date` (RFC 9110 §5.6.7), which the doctor reads from servers.
//
// Input: the body.

import FuzzSupport
import WireFormat

Fuzzer.run { input in
    let text = input.text
    if let date = HTTPDate.parse(text) {
        invariant(HTTPDate.parse(HTTPDate.format(date)) == date, "a date read back from its own writing is the same")
    }
    let pairs: [(String, String)]
    do throws(FormEncoding.Failure) {
        pairs = try FormEncoding.parsePairs(text)
    } catch {
        invariant(!error.reason.isEmpty, "a failure says why")
        invariant((try? FormEncoding.parse(text)) == nil, "the dictionary parser refuses what the pair parser does")
        return
    }
    let written = FormEncoding.encode(pairs)
    let reread = try! FormEncoding.parsePairs(written)
    invariant(
        reread.map(\.0) == pairs.map(\.0) && reread.map(\.1) == pairs.map(\.1),
        "written pairs read back the same"
    )
    invariant(written.utf8.allSatisfy { $0 < 0x80 }, "written pairs are ASCII")

    do {
        let dictionary = try FormEncoding.parse(text)
        invariant(dictionary.count == pairs.count, "a dictionary has every pair")
        for (name, value) in pairs { invariant(dictionary[name] == value, "a dictionary keeps each value") }
    } catch {
        invariant(Set(pairs.map(\.0)).count < pairs.count, "only a repeated name is refused")
    }
    for (name, value) in pairs {
        invariant((try? FormEncoding.unescape(FormEncoding.escape(name))) == name, "escaping is undone")
        invariant((try? FormEncoding.unescape(FormEncoding.escape(value))) == value, "escaping is undone")
    }
}
