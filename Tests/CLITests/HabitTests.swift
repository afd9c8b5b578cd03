import ATOAuthTesting
import Foundation
import Testing

/// What people bring from curl and gh: `-H`, `login`, a mistyped word, an unknown option, a body piped in.
@Suite("curl and gh habits, through the CLI as a process", .serialized)
struct HabitTests {
    @Test("-H is --header, as in curl")
    func shortHeader() async throws {
        let answer = ScriptedResponse.json(#"{"ok":true}"#)
        try await CLIWorld.withScriptedPDS(LoopbackHTTPServer.always(answer)) { world, pds in
            let result = try await world.atoauth("xrpc", "com.example.feed.get", "-H", "X-Trace: 42")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(pds.requests.last?.header("X-Trace") == "42")
        }
    }

    @Test(
        "another tool's word for a command gets atoauth's, in words and in JSON",
        arguments: [
            (["login"], "atoauth accounts add"), (["login", "alice.test"], "atoauth accounts add"),
            (["logout"], "atoauth accounts remove"), (["auth", "login"], "atoauth accounts add"),
            (["auth", "status"], "atoauth accounts status"), (["auth", "logout"], "atoauth accounts remove"),
            (["accounts", "login"], "atoauth accounts add"),
        ]
    )
    func otherToolsWords(arguments: [String], suggestion: String) async throws {
        try await ScratchHome.with { scratch in
            let result = try await scratch.atoauth(arguments)
            #expect(result.status == 2)
            #expect(result.stderr == "No such command. Did you mean `\(suggestion)`?\n", "\(result.stderr)")
            let json = try await scratch.atoauth(arguments + ["--json"])
            let object = try JSONSerialization.jsonObject(with: Data(json.stderr.utf8)) as? [String: Any]
            #expect(object?["message"] as? String == "No such command. Did you mean `\(suggestion)`?")
        }
    }

    @Test("gh's ls, rm and logout run accounts list and accounts remove")
    func accountAliases() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            try await world.signIn("bob.test")
            let list = try await world.atoauth("accounts", "list")
            let ls = try await world.atoauth("accounts", "ls")
            #expect(ls.status == 0 && ls.stdout == list.stdout && ls.stderr == list.stderr, "\(ls.stderr)")
            #expect(ls.stdout.contains("alice.test") && ls.stdout.contains("bob.test"))

            let rm = try await world.atoauth("accounts", "rm", "alice.test")
            #expect(rm.status == 0, "\(rm.stderr)")
            #expect(rm.stdout.hasPrefix("Removed alice.test ("), "\(rm.stdout)")
            let logout = try await world.atoauth("accounts", "logout", "bob.test")
            #expect(logout.status == 0, "\(logout.stderr)")
            #expect(logout.stdout.hasPrefix("Removed bob.test ("), "\(logout.stdout)")
            #expect(try await world.atoauth("accounts", "ls", "--json").stdout == "[]\n")
            // The alias is the command: its help, its errors and its unknown options are remove's.
            let missing = try await world.atoauth("accounts", "rm", "--bogus")
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("Unknown option '--bogus'"), "\(missing.stderr)")
            #expect(missing.stderr.contains("atoauth accounts remove"), "\(missing.stderr)")
        }
    }

    @Test(
        "a command atoauth has no need of gets a one-line pointer to what does the job, not another command's usage",
        arguments: [
            (["accounts", "token"], "`atoauth gateway`"), (["auth", "token"], "`atoauth gateway`"),
            (["accounts", "refresh"], "`atoauth accounts add <handle> --scope …`"),
            (["auth", "refresh"], "sessions refresh themselves"),
        ]
    )
    func pointers(arguments: [String], pointer: String) async throws {
        try await ScratchHome.with { scratch in
            let result = try await scratch.atoauth(arguments)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("No such command: "), "\(result.stderr)")
            #expect(result.stderr.contains(pointer), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
            #expect(!result.stderr.contains("Usage:"), "\(result.stderr)")
            let json = try await scratch.atoauth(arguments + ["--json"])
            let object = try JSONSerialization.jsonObject(with: Data(json.stderr.utf8)) as? [String: Any]
            #expect(object?["error"] as? String == "usage")
            #expect((object?["message"] as? String)?.contains(pointer) == true, "\(json.stderr)")
        }
    }

    @Test(
        "a word where a command would be, close to none, is no such command, with where the commands are listed",
        arguments: [
            (["bogus"], "atoauth"), (["accounts", "bogus"], "atoauth accounts"),
            (["client", "bogus"], "atoauth client"),
        ]
    )
    func noSuchCommand(arguments: [String], parent: String) async throws {
        try await ScratchHome.with { scratch in
            let result = try await scratch.atoauth(arguments)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("No such command: bogus. See `\(parent) --help`"), "\(result.stderr)")
            #expect(!result.stderr.contains("Usage:"), "\(result.stderr)")
        }
    }

    @Test(
        "curl's -X and -d given to xrpc are named as unknown, with atoauth's spelling, and their values never shown",
        arguments: [
            (["-X", "POST"], "-X", "--post"), (["-XPOST"], "-X", "--post"),
            (["--request", "PUT"], "--request", "--input"),
            (["-d", #"{"password":"hunter2"}"#], "-d", "--input"), (["--data", "@body.json"], "--data", "@FILE"),
            (["--data-raw=hunter2"], "--data-raw", "--input"), (["-d@secret.json"], "-d", "--input"),
        ]
    )
    func curlOptions(options: [String], named: String, spelling: String) async throws {
        try await ScratchHome.with { scratch in
            for arguments in [
                ["xrpc", "com.example.thing.do"] + options, ["xrpc"] + options + ["com.example.thing.do"],
            ] {
                let result = try await scratch.atoauth(arguments)
                #expect(result.status == 2)
                #expect(result.stderr.hasPrefix("Error: Unknown option '\(named)'. "), "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(spelling), "\(arguments): \(result.stderr)")
                #expect(!result.stderr.contains("Query parameters"), "\(arguments): \(result.stderr)")
                #expect(!result.stderr.contains("is not an NSID"), "\(arguments): \(result.stderr)")
                #expect(!result.stderr.contains("hunter2") && !result.stderr.contains("secret"), "\(result.stderr)")
                let json = try await scratch.atoauth(arguments + ["--json"])
                let object = try JSONSerialization.jsonObject(with: Data(json.stderr.utf8)) as? [String: Any]
                let message = try #require(object?["message"] as? String, "\(json.stderr)")
                #expect(message.hasPrefix("Unknown option '\(named)'. ") && message.contains(spelling), "\(message)")
            }
        }
    }

    @Test(
        "help for a command that does not exist is a usage error with the closest one, not the root's help",
        arguments: [
            (["help", "acounts"], "No such command. Did you mean `atoauth help accounts`?"),
            (["help", "accounts", "lst"], "No such command. Did you mean `atoauth help accounts list`?"),
            (["help", "frobnicate"], "No such command: frobnicate. See `atoauth help` for the commands."),
            (["help", "whoami", "extra"], "No such command: whoami extra. See `atoauth help whoami`."),
        ]
    )
    func helpForUnknownCommand(arguments: [String], message: String) async throws {
        try await ScratchHome.with { scratch in
            let result = try await scratch.atoauth(arguments)
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty, "\(result.stdout)")
            #expect(result.stderr == message + "\n", "\(result.stderr)")
            let known = try await scratch.atoauth(["help", "accounts", "ls"])
            #expect(known.status == 0 && known.stdout.hasPrefix("OVERVIEW: List"), "\(known.stdout)")
        }
    }

    @Test("a mistyped accounts subcommand with an argument gets the suggestion alone, not another command's usage")
    func mistypedWithArgument() async throws {
        try await ScratchHome.with { scratch in
            let result = try await scratch.atoauth(["accounts", "ad", "alice.test"])
            #expect(result.status == 2)
            #expect(result.stderr == "No such command. Did you mean `atoauth accounts add`?\n", "\(result.stderr)")
            #expect(!result.stderr.contains("accounts list"))
        }
    }

    @Test(
        "an unknown option is named before a missing argument",
        arguments: [
            ["xrpc", "--bogus"], ["accounts", "add", "--no-such-flag"], ["accounts", "switch", "--frobnicate"],
        ]
    )
    func unknownOptionFirst(arguments: [String]) async throws {
        try await ScratchHome.with { scratch in
            let result = try await scratch.atoauth(arguments)
            #expect(result.status == 2)
            let option = try #require(arguments.last)
            #expect(result.stderr.contains("Unknown option '\(option)'"), "\(result.stderr)")
            #expect(!result.stderr.contains("Missing expected argument"), "\(result.stderr)")
        }
    }

    @Test("a body piped to xrpc without --input gets a hint and is not sent; with --input - it is")
    func pipedBody() async throws {
        let answer = ScriptedResponse.json(#"{"ok":true}"#)
        try await CLIWorld.withScriptedPDS(LoopbackHTTPServer.always(answer)) { world, pds in
            let body = Data(#"{"repo":"alice.test"}"#.utf8)
            // From a file (`< body.json`), so the data is there before atoauth looks, whatever the timing.
            let file = world.directory.appendingPathComponent("body.json")
            try body.write(to: file)
            let executable = try #require(CLIProcess.executable)
            let forgotten = try await CLIProcess.run(
                ["-c", #"exec "$0" xrpc com.example.thing.get < "$1""#, executable.path, file.path],
                environment: world.environment,
                executable: URL(fileURLWithPath: "/bin/sh")
            )
            #expect(forgotten.status == 0, "\(forgotten.stderr)")
            #expect(forgotten.stderr.contains("standard input has data, which xrpc sends only with `--input -`"))
            #expect(pds.requests.last?.method == "GET" && pds.requests.last?.body.isEmpty == true)

            let sent = try await world.atoauth("xrpc", "com.example.thing.do", "--input", "-", stdin: body)
            #expect(sent.status == 0, "\(sent.stderr)")
            #expect(!sent.stderr.contains("standard input has data"))
            #expect(pds.requests.last?.body == body)

            let quiet = try await world.atoauth("xrpc", "com.example.thing.get", stdin: Data())
            #expect(!quiet.stderr.contains("standard input has data"), "an empty stdin says nothing")
        }
    }
}

@Suite("Warnings read as sentences", .serialized)
struct WarningTests {
    @Test("a warning is a sentence on stderr without -v, and a full log record with -v")
    func warningAsSentence() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: world.home.path)
            let plain = try await world.atoauth("accounts", "list")
            #expect(plain.status == 0, "\(plain.stderr)")
            #expect(
                plain.stderr.hasPrefix("Warning: Tightened permissions of \(world.home.path)"),
                "\(plain.stderr)"
            )
            #expect(plain.stderr.hasSuffix(" from 0755 to 0700.\n"), "\(plain.stderr)")
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: world.home.path)
            let verbose = try await world.atoauth("accounts", "list", "-v")
            #expect(
                verbose.stderr.contains("warning atoauth"),
                "the record keeps its level and label: \(verbose.stderr)"
            )
        }
    }
}
