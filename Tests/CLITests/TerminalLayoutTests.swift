import Testing

@testable import atoauth

/// The one function that wraps messages for a terminal, the table that aligns columns, and the roff helpers of the
/// man page, each by itself.
@Suite("Text laid out for a terminal")
struct TerminalLayoutTests {
    @Test("a line that fits is left exactly as it is, spaces and all")
    func fits() {
        let text = "Note:  two spaces stay.\n\n  indented"
        #expect(TerminalLayout.wrapped(text, width: 40) == text)
    }

    @Test("a long line breaks between words, every line within the width, no word lost or split")
    func breaksBetweenWords() {
        let text =
            "No account is signed in here. Sign in with `atoauth accounts add <handle>`, or see the signed-in "
            + "accounts with `atoauth accounts list`."
        let wrapped = TerminalLayout.wrapped(text, width: 40)
        let lines = wrapped.split(separator: "\n")
        #expect(lines.count > 2)
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(wrapped)")
        #expect(lines.joined(separator: " ") == text)
        #expect(lines.allSatisfy { !$0.hasPrefix(" ") && !$0.hasSuffix(" ") })
    }

    @Test("a word longer than the width, such as a URL, gets a line of its own and is never broken")
    func longWord() {
        let url = "https://bsky.social/oauth/authorize?client_id=http%3A%2F%2Flocalhost&request_uri=urn%3Aietf%3A1"
        let wrapped = TerminalLayout.wrapped("Open this URL to sign in: \(url) then come back.", width: 40)
        #expect(wrapped.split(separator: "\n") == ["Open this URL to sign in:", Substring(url), "then come back."])
    }

    @Test("a continuation keeps the line's indentation, and hangs under the text of a list item")
    func indentation() {
        let wrapped = TerminalLayout.wrapped(
            "Problems:\n  - redirect_uris: an https redirect URI must be on the client_id's host [atproto]",
            width: 40
        )
        let lines = wrapped.split(separator: "\n")
        #expect(lines.first == "Problems:")
        #expect(lines[1].hasPrefix("  - redirect_uris:"))
        #expect(lines.dropFirst(2).allSatisfy { $0.hasPrefix("    ") && !$0.hasPrefix("     ") }, "\(wrapped)")
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(wrapped)")
    }

    @Test("a prompt keeps its trailing space when it wraps")
    func prompt() {
        let wrapped = TerminalLayout.wrapped(
            "Passphrase of the store at /home/alice/.local/share/atoauth (it is not shown): ",
            width: 40
        )
        #expect(wrapped.hasSuffix("shown): "))
        #expect(wrapped.split(separator: "\n").allSatisfy { $0.count <= 40 })
    }

    @Test("wide characters count two columns, combining marks none")
    func displayWidth() {
        #expect(TerminalLayout.displayWidth("alice.test") == 10)
        #expect(TerminalLayout.displayWidth("日本語") == 6)
        #expect(TerminalLayout.displayWidth("e\u{301}") == 1)
        #expect(TerminalLayout.displayWidth("🦋") == 2)
        let wrapped = TerminalLayout.wrapped("日本語 日本語 日本語 日本語 日本語 日本語 日本語", width: 40)
        #expect(wrapped.split(separator: "\n").map { TerminalLayout.displayWidth($0) } == [34, 13])
    }

    @Test(
        "the width is COLUMNS when positive, else the terminal's, never under 40; unknown, nothing is wrapped",
        arguments: [
            ("100", 70, 100), (nil, 70, 70), ("0", 70, 70), ("-5", 120, 120), ("wide", 90, 90), ("10", nil, 40),
            (nil, 20, 40), (nil, 0, nil), (nil, nil, nil), ("", nil, nil),
        ] as [(String?, Int?, Int?)]
    )
    func width(columns: String?, terminal: Int?, expected: Int?) {
        #expect(TerminalLayout.width(columns: columns, terminalColumns: terminal) == expected)
    }

    @Test("a table pads each cell to its column's widest, by display width, and ends no line in spaces")
    func table() {
        let table = TextTable(rows: [
            ["  HANDLE", "DID", "KIND"], ["* 日本.test", "did:plc:a", "oauth"], ["  b", "d", "x"],
        ])
        #expect(
            table.lines == [
                "  HANDLE     DID        KIND",
                "* 日本.test  did:plc:a  oauth",
                "  b          d          x",
            ]
        )
    }

    @Test("roff: options are written with minus signs, quotes and tildes as ASCII, other characters escaped")
    func roffEscapes() {
        #expect(Roff.escaped("--scope 'a' ~/x \\ é") == #"\-\-scope \(aqa\(aq \(ti/x \e \[u00E9]"#)
        #expect(Roff.line("see `atoauth accounts list`.") == #"see \fBatoauth accounts list\fR."#)
        #expect(Roff.line(".hidden") == #"\&.hidden"#)
    }

    @Test("roff: a long example line is folded at a space as a shell continues a line")
    func roffFolds() {
        let line =
            "atoauth accounts add bot.example.com --client-key client-key.jwk --client-id https://bot.example.com/m.json"
        #expect(
            Roff.folded(line, width: 64) == [
                "atoauth accounts add bot.example.com \\", "  --client-key client-key.jwk \\",
                "  --client-id https://bot.example.com/m.json",
            ]
        )
        #expect(Roff.folded("  short  # kept as written", width: 64) == ["  short  # kept as written"])
        let long = String(repeating: "x", count: 70)
        #expect(Roff.folded("a \(long)", width: 64) == ["a \\", "  \(long)"])
    }
}
