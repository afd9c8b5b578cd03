import ATOAuthTesting
import Foundation
import Testing

/// The shared options: each command takes those it can use, refuses the others on the command line and ignores
/// their environment variables; every command answers `--json` with JSON.
@Suite("Global options are taken where they mean something and refused elsewhere", .serialized)
struct GlobalOptionTests {
    /// A global option given to a command that cannot use it, and the commands the refusal must name.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var command: [String]
        var option: [String]
        var takers: String

        var testDescription: String { (command + option).joined(separator: " ") }
    }

    static let account =
        "`atoauth accounts status`, `atoauth whoami`, `atoauth xrpc`, `atoauth gateway` and `atoauth doctor`"
    static let identity =
        "`atoauth accounts add`, `atoauth accounts status`, `atoauth accounts upgrade`, `atoauth whoami`, "
        + "`atoauth xrpc`, `atoauth gateway` and `atoauth doctor`"
    static let loopback =
        "`atoauth accounts add`, `atoauth accounts status`, `atoauth accounts upgrade`, `atoauth accounts remove`, "
        + "`atoauth whoami`, `atoauth xrpc`, `atoauth gateway`, `atoauth doctor`, `atoauth client remove-key`, `atoauth client metadata` "
        + "and `atoauth client check`"
    static let storeCommands =
        "`atoauth accounts add`, `atoauth accounts list`, `atoauth accounts status`, `atoauth accounts switch`, "
        + "`atoauth accounts upgrade`, `atoauth accounts remove`, `atoauth whoami`, `atoauth xrpc`, `atoauth gateway`, "
        + "`atoauth gateway token create`, `atoauth gateway token list`, `atoauth gateway token revoke`, "
        + "`atoauth doctor`, "
        + "`atoauth client keygen`, `atoauth client keys`, `atoauth client remove-key`"
    static let store = storeCommands + " and `atoauth client metadata`"
    /// `-v`: every command using the store, and `client check`, which fetches.
    static let verbose = storeCommands + ", `atoauth client metadata` and `atoauth client check`"
    static let requestTimeout =
        "`atoauth accounts add`, `atoauth accounts status`, `atoauth accounts upgrade`, `atoauth accounts remove`, "
        + "`atoauth whoami`, `atoauth xrpc`, `atoauth gateway`, `atoauth doctor`, `atoauth client remove-key` and `atoauth client check`"
    static let clientID =
        "`atoauth accounts add`, `atoauth accounts upgrade`, `atoauth doctor` and `atoauth client metadata`"

    static let refusals: [Refusal] = {
        let account = ["--account", "alice.test"]
        let plc = ["--plc-directory", "http://127.0.0.1:1"]
        let resolver = ["--handle-resolver=http://127.0.0.1:1"]
        let loopback = ["--allow-http-loopback"]
        let client = ["--client-id", "https://client.example/metadata.json"]
        var refusals: [Refusal] = []
        func refuse(_ command: [String], _ options: [([String], String)]) {
            refusals += options.map { Refusal(command: command, option: $0.0, takers: $0.1) }
        }
        let onlyAdd = Self.clientID
        refuse(["accounts", "add", "alice.test"], [(account, Self.account)])
        refuse(["accounts", "upgrade", "alice.test"], [(account, Self.account)])
        for command in [["accounts", "list"], ["accounts", "switch", "alice.test"]] {
            refuse(
                command,
                [
                    (account, Self.account), (plc, identity), (resolver, identity), (loopback, Self.loopback),
                    (client, onlyAdd),
                ]
            )
        }
        refuse(["accounts", "status"], [(client, onlyAdd)])
        refuse(
            ["accounts", "remove", "alice.test"],
            [(account, Self.account), (plc, identity), (resolver, identity), (client, onlyAdd)]
        )
        refuse(["whoami"], [(client, onlyAdd)])
        refuse(["xrpc", "com.atproto.server.getSession"], [(client, onlyAdd)])
        refuse(
            ["demo"],
            [
                (["--home", "/tmp/elsewhere"], store), (["--store", "postgresql://db.example/atoauth"], store),
                (account, Self.account), (plc, identity), (loopback, Self.loopback),
                (client, onlyAdd), (["-v"], Self.verbose),
            ]
        )
        refuse(["client", "keys"], [(account, Self.account), (loopback, Self.loopback), (client, onlyAdd)])
        refuse(["gateway", "token", "list"], [(account, Self.account)])
        refuse(["client", "keygen"], [(plc, identity), (["--request-timeout", "5"], Self.requestTimeout)])
        refuse(
            ["client", "check", "client-metadata.json"],
            [(["--home", "/tmp/elsewhere"], store), (account, Self.account), (client, onlyAdd)]
        )
        return refusals
    }()

    @Test("an option the command cannot use is a usage error naming the commands that take it", arguments: refusals)
    func refused(_ refusal: Refusal) async throws {
        try await ScratchHome.with { scratch in
            let result = try await scratch.atoauth(refusal.command + refusal.option)
            #expect(result.status == 2, "\(result.stderr)")
            let flag = refusal.option[0] == "-v" ? "--verbose" : String(refusal.option[0].prefix { $0 != "=" })
            let name = "atoauth " + refusal.command.prefix { !$0.contains(".") }.joined(separator: " ")
            #expect(
                result.stderr.contains("\(flag) does not apply to `\(name)`; it is taken by \(refusal.takers)."),
                "\(result.stderr)"
            )
            #expect(result.stderr.contains("See '\(name) --help' for more information."), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: scratch.home.path), "nothing is opened or created")

            let json = try await scratch.atoauth(refusal.command + refusal.option + ["--json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stderr.utf8)) as? [String: Any])
            #expect(object["error"] as? String == "usage" && object["exit"] as? Int == 2)
            #expect((object["message"] as? String)?.contains("\(flag) does not apply") == true)
        }
    }

    @Test("help shows exactly the global options a command takes, after its own options")
    func helpShowsTakenOptions() async throws {
        let taken: [[String]: Set<String>] = [
            ["accounts", "add"]: [
                "--home", "--store", "--plc-directory", "--handle-resolver", "--allow-http-loopback", "--client-id",
                "--request-timeout", "--json", "--verbose",
            ],
            ["accounts", "upgrade"]: [
                "--home", "--store", "--plc-directory", "--handle-resolver", "--allow-http-loopback", "--client-id",
                "--request-timeout", "--json", "--verbose",
            ],
            ["accounts", "list"]: ["--home", "--store", "--json", "--verbose"],
            ["accounts", "status"]: [
                "--home", "--store", "--account", "--plc-directory", "--handle-resolver", "--allow-http-loopback",
                "--request-timeout", "--json", "--verbose",
            ],
            ["accounts", "switch"]: ["--home", "--store", "--json", "--verbose"],
            ["accounts", "remove"]: [
                "--home", "--store", "--allow-http-loopback", "--request-timeout", "--json", "--verbose",
            ],
            ["whoami"]: [
                "--home", "--store", "--account", "--plc-directory", "--handle-resolver", "--allow-http-loopback",
                "--request-timeout", "--json", "--verbose",
            ],
            ["xrpc"]: [
                "--home", "--store", "--account", "--plc-directory", "--handle-resolver", "--allow-http-loopback",
                "--request-timeout", "--json", "--verbose",
            ],
            ["demo"]: ["--json"],
            ["client", "keygen"]: ["--home", "--store", "--json", "--verbose"],
            ["client", "keys"]: ["--home", "--store", "--json", "--verbose"],
            ["client", "remove-key"]: [
                "--home", "--store", "--allow-http-loopback", "--request-timeout", "--json", "--verbose",
            ],
            ["client", "metadata"]: [
                "--home", "--store", "--allow-http-loopback", "--client-id", "--json", "--verbose",
            ],
            ["client", "check"]: ["--allow-http-loopback", "--request-timeout", "--json", "--verbose"],
        ]
        let global: Set<String> = [
            "--home", "--store", "--account", "--plc-directory", "--handle-resolver", "--allow-http-loopback",
            "--client-id", "--request-timeout", "--json", "--verbose",
        ]
        try await ScratchHome.with { scratch in
            for (command, expected) in taken {
                let help = try await scratch.atoauth(command + ["--help"], extraEnvironment: ["COLUMNS": "100"])
                #expect(help.status == 0)
                let options = HelpText(help.stdout).optionNames
                let shownGlobal = options.filter(global.contains)
                #expect(Set(shownGlobal) == expected, "\(command): \(options)")
                let own = options.filter { !global.contains($0) && !["--help", "--version"].contains($0) }
                let lastOwn = own.compactMap { options.firstIndex(of: $0) }.max() ?? -1
                let firstGlobal = shownGlobal.compactMap { options.firstIndex(of: $0) }.min() ?? Int.max
                #expect(lastOwn < firstGlobal, "\(command): the command's own options come first: \(options)")
            }
        }
    }

    @Test("a variable for an option the command does not take is ignored; one it takes is used")
    func variablesAreAmbient() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let badPLC = ["ATOAUTH_PLC_DIRECTORY": "ftp://nowhere"]
            for command in [["accounts", "list"], ["accounts", "switch", "alice.test"]] {
                let result = try await world.atoauth(command, extraEnvironment: badPLC)
                #expect(result.status == 0, "\(command): \(result.stderr)")
            }
            let whoamiBadPLC = try await world.atoauth(["whoami"], extraEnvironment: badPLC)
            #expect(whoamiBadPLC.status == 2)
            #expect(whoamiBadPLC.stderr.contains("--plc-directory needs an http(s) URL"), "\(whoamiBadPLC.stderr)")

            let nobody = ["ATOAUTH_ACCOUNT": "nobody.test"]
            #expect(try await world.atoauth(["accounts", "list"], extraEnvironment: nobody).stdout.contains("alice"))
            #expect(try await world.atoauth(["whoami"], extraEnvironment: nobody).status == 3)

            let badClient = ["ATOAUTH_CLIENT_ID": "not a url"]
            #expect(try await world.atoauth(["whoami"], extraEnvironment: badClient).status == 0)
            let add = try await world.atoauth(["accounts", "add", "bob.test"], extraEnvironment: badClient)
            #expect(add.status == 2)
            #expect(add.stderr.contains("--client-id needs an http(s) URL"), "\(add.stderr)")
            let password = try #require(world.sandbox.appPasswords["bob.test"])
            let appPassword = try await world.atoauth(
                ["accounts", "add", "bob.test", "--app-password"],
                extraEnvironment: badClient.merging(["ATOAUTH_APP_PASSWORD": password]) { $1 }
            )
            #expect(appPassword.status == 0, "an app-password sign-in reads no client ID: \(appPassword.stderr)")
        }
    }

    @Test("global options work before, between and after the command words")
    func placement() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let did = try #require(world.did("alice.test"))
            for arguments in [
                ["--json", "accounts", "list"], ["accounts", "--json", "list"], ["accounts", "list", "--json"],
                ["--home", world.home.path, "accounts", "--json", "list"], ["-v", "--json", "accounts"],
            ] {
                let result = try await world.atoauth(arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
                #expect(list?.first?["did"] as? String == did, "\(arguments): \(result.stdout)")
            }
            let early = try await world.atoauth(["--account", "alice.test", "whoami"])
            #expect(early.status == 0 && early.stdout.hasPrefix("alice.test "), "\(early.stderr)")
            let refused = try await world.atoauth(["--client-id", "https://client.example/c.json", "whoami"])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("--client-id does not apply to `atoauth whoami`"), "\(refused.stderr)")
        }
    }

    @Test("every command answers --json with JSON on one line of stdout; the demo hits no time limit")
    func jsonEverywhere() async throws {
        try await CLIWorld.with { world in
            let alice = try #require(world.did("alice.test"))
            let bob = try #require(world.did("bob.test"))
            let added = try await world.atoauth(["accounts", "add", "bob.test", "--json"])
            #expect(try object(added)["did"] as? String == bob)
            #expect(try await world.atoauth(["accounts", "add", "alice.test"]).status == 0)

            let switched = try object(try await world.atoauth(["accounts", "switch", "bob.test", "--json"]))
            #expect(switched["did"] as? String == bob && switched["active"] as? Bool == true)
            #expect(switched["handle"] as? String == "bob.test" && switched["kind"] as? String == "oauth")

            let list = try await world.atoauth(["accounts", "list", "--json"])
            #expect((try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [Any])?.count == 2)
            #expect(list.stdout.split(separator: "\n").count == 1, "one line: \(list.stdout)")
            #expect(try object(try await world.atoauth(["accounts", "status", "--json"]))["did"] as? String == bob)
            #expect(try object(try await world.atoauth(["whoami", "--json"]))["handle"] as? String == "bob.test")

            let xrpc = try await world.atoauth(["xrpc", "com.atproto.server.getSession", "--json"])
            #expect(try object(xrpc)["did"] as? String == bob)
            #expect(xrpc.stdout.split(separator: "\n").count == 1, "compact: one line")

            let removed = try object(try await world.atoauth(["accounts", "remove", "alice.test", "--json"]))
            #expect(removed["did"] as? String == alice && removed["revocation"] as? String == "revoked")

            let demo = try object(try await world.atoauth(["demo", "--json"]))
            #expect(demo["ok"] as? Bool == true)
            let steps = try #require(demo["steps"] as? [[String: Any]])
            #expect(steps.map { $0["step"] as? Int } == [1, 2, 3, 4, 5, 6, 7])
            #expect(steps.allSatisfy { ($0["lines"] as? [String])?.isEmpty == false })
        }
    }

    @Test("sandbox --json prints its settings as one line of JSON")
    func sandboxJSON() async throws {
        let (process, text) = try await SandboxProcess.launch(
            ["sandbox", "--json", "--test-account", "carol.test"],
            until: "\n"
        )
        await process.stop(SIGINT, within: .seconds(10))
        let line = try #require(text.split(separator: "\n").first)
        let settings = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let accounts = try #require(settings["accounts"] as? [[String: String]])
        #expect(accounts.map { $0["handle"] } == ["carol.test"])
        #expect(accounts.first?["did"]?.hasPrefix("did:plc:") == true)
        let environment = try #require(settings["environment"] as? [String: String])
        #expect(environment["ATOAUTH_ALLOW_HTTP_LOOPBACK"] == "1")
        #expect((settings["pds"] as? String)?.hasPrefix("http://127.0.0.1:") == true)
    }

    /// The one JSON object a command printed; every `--json` output is one line.
    private func object(_ result: CLIProcess.Result) throws -> [String: Any] {
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 1, "one line: \(result.stdout)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "\(result.stdout)"
        )
    }
}
