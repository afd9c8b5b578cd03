import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("The table of settings drives GET and POST /_sandbox/settings, old keys included, and the start-up summary")
struct SettingsTableTests {
    @Test("GET /_sandbox/settings answers every setting of the table by its key, with its value")
    func everySettingRead() async throws {
        var configuration = SandboxConfiguration(autoApprove: true)
        configuration.faults.slowResponses = 0.25
        configuration.faults.refreshServerError = .times(2)
        configuration.withheldPermissions = ["blob:*/*"]
        try await withSandbox(configuration) { sandbox in
            let response = try await sandbox.transport.send(
                HTTPRequest(url: sandbox.endpoints.authorizationServer.appending(path: "_sandbox/settings"))
            )
            let settings = try response.json()
            #expect(Set(settings.keys) == Set(SandboxSetting.all.map(\.key)))
            #expect(settings["accessTokenLifetime"] as? Int == 1800)
            #expect(settings["slowResponses"] as? Double == 0.25)
            #expect(settings["refreshServerErrors"] as? Int == 2)
            #expect(settings["autoApprove"] as? Bool == true)
            #expect(settings["withheldPermissions"] as? [String] == ["blob:*/*"])
        }
    }

    @Test("every key and every old key is taken, and applied as its setting", arguments: SandboxSetting.all.map(\.key))
    func everyKeyTaken(_ key: String) async throws {
        let setting = try #require(SandboxSetting.all.first { $0.key == key })
        try await withSandbox { sandbox in
            for name in [setting.key] + setting.aliases {
                let value =
                    switch setting.kind {
                    case .number(let range): SandboxSetting.Value.number(range.range.upperBound).text
                    case .flag: "true"
                    case .tokens: #"["blob:*/*"]"#
                    }
                let response = try await SettingsRangeTests.post(sandbox, "{\"\(name)\": \(value)}")
                #expect(response.status == 200, "\(name): \(response.text)")
                #expect(try response.json()["applied"] as? [String] == [setting.key])
                let applied = setting.value(in: sandbox.server.configuration)
                switch setting.kind {
                case .number(let range): #expect(applied == .number(range.range.upperBound), "\(name)")
                case .flag: #expect(applied == .flag(true), "\(name)")
                case .tokens: #expect(applied == .tokens(["blob:*/*"]), "\(name)")
                }
            }
        }
    }

    @Test("the old key refreshServerError is refused as itself, by its own name")
    func aliasRefusedByName() async throws {
        try await withSandbox { sandbox in
            let response = try await SettingsRangeTests.post(sandbox, #"{"refreshServerError": 101}"#)
            #expect(response.status == 400)
            #expect(try response.json()["setting"] as? String == "refreshServerError")
            #expect(
                try response.json()["message"] as? String
                    == "refreshServerError must be a whole number of refreshes from 0 to 100"
            )
        }
    }

    @Test("an option in another unit is checked and applied in it: milliseconds for a setting in seconds")
    func scaledOption() throws {
        let slow = SandboxSetting.slowResponses
        let option = try #require(slow.scaledOption)
        let refused = SandboxSettingsChange.Refusal(
            setting: "--slow-milliseconds",
            message: "--slow-milliseconds must be a number of milliseconds from 0 to 60000"
        )
        #expect(throws: refused) {
            try SandboxSettingsChange([(slow, "--slow-milliseconds", .number(60_001), option)])
        }
        let change = try SandboxSettingsChange([(slow, "--slow-milliseconds", .number(250), option)])
        var configuration = SandboxConfiguration(accounts: [])
        let applied = change.apply(to: &configuration)
        #expect(applied == ["slowResponses"])
        #expect(configuration.faults.slowResponses == 0.25)
    }

    @Test("a value of the wrong type for an option is refused with what the setting takes")
    func wrongTypeRefused() {
        #expect(
            SandboxSetting.autoApprove.problem(.number(1), name: "--auto-approve")
                == "--auto-approve must be true or false"
        )
        #expect(
            SandboxSetting.withheldPermissions.problem(.tokens(["two tokens"]), name: "--withhold-permission")?
                .hasPrefix("--withhold-permission: ") == true
        )
    }

    @Test("the start-up summary lists the faults that are on by key, as POST /_sandbox/settings takes them")
    func summary() throws {
        var configuration = SandboxConfiguration(accounts: [])
        configuration.faults.clockSkew = 3600
        configuration.faults.issuerMismatch = true
        configuration.faults.slowResponses = 0.5
        #expect(configuration.activeFaults.map(\.key) == ["clockSkew", "issuerMismatch", "slowResponses"])
        let endpoints = SandboxEndpoints(
            plcDirectory: try #require(URL(string: "http://127.0.0.1:1")),
            pds: try #require(URL(string: "http://127.0.0.1:2")),
            authorizationServer: try #require(URL(string: "http://127.0.0.1:3"))
        )
        #expect(
            configuration.banner(endpoints).contains(
                "Faults:                clockSkew 3600, issuerMismatch, slowResponses 0.5"
            )
        )
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(configuration.summaryJSON(endpoints).utf8)) as? [String: Any]
        )
        let faults = try #require(json["faults"] as? [String: Any])
        #expect(faults["clockSkew"] as? Int == 3600 && faults["issuerMismatch"] as? Bool == true)
    }
}
