import ATOAuthTesting
import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("POST /_sandbox/settings turns the faults of a misconfigured server on and off")
struct FaultSettingsTests {
    typealias Refused = SettingsRangeTests.Refused

    /// Bodies refused, each naming its setting: a flag that is not a boolean, a token list that is not an array of
    /// tokens, a clock skew out of its range, not whole or not a number.
    static let refused: [Refused] = [
        Refused(setting: "issuerMismatch", value: "1"),
        Refused(setting: "noIssParameter", value: #""false""#),
        Refused(setting: "didDocumentNamesOtherHandle", value: "[]"),
        Refused(setting: "prmNamesOtherServer", value: "0"),
        Refused(setting: "noDPoPNonces", value: #""yes""#),
        Refused(setting: "refusedScopes", value: #""transition:generic""#),
        Refused(setting: "refusedScopes", value: "[1]"),
        Refused(setting: "refusedScopes", value: #"["two tokens"]"#),
        Refused(setting: "refusedScopes", value: #"["repo:app.bsky.feed.post?action=publish"]"#),
        Refused(setting: "clockSkew", value: "86401"),
        Refused(setting: "clockSkew", value: "-86401"),
        Refused(setting: "clockSkew", value: "1.5"),
        Refused(setting: "clockSkew", value: "1e300"),
        Refused(setting: "clockSkew", value: "-9223372036854775808"),
        Refused(setting: "clockSkew", value: #""3600""#),
        Refused(setting: "clockSkew", value: "true"),
        // A misspelt setting (issuerMismatch) is no setting: refused, not ignored.
        Refused(setting: "issuerMismatched", value: "true"),
    ]

    static let everyFault = """
        {"issuerMismatch": true, "noIssParameter": true, "didDocumentNamesOtherHandle": true,
         "prmNamesOtherServer": true, "refusedScopes": ["transition:generic"], "noDPoPNonces": true,
         "clockSkew": -3600}
        """

    @Test("each fault applies, is named in applied, and turns off again")
    func applied() async throws {
        try await withSandbox { sandbox in
            let response = try await SettingsRangeTests.post(sandbox, Self.everyFault)
            #expect(response.status == 200, "\(response.text)")
            let names = [
                "clockSkew", "didDocumentNamesOtherHandle", "issuerMismatch", "noDPoPNonces", "noIssParameter",
                "prmNamesOtherServer", "refusedScopes",
            ]
            #expect(try response.json()["applied"] as? [String] == names)
            let faults = sandbox.server.configuration.faults
            #expect(faults.issuerMismatch && faults.noIssParameter && faults.didDocumentNamesOtherHandle)
            #expect(faults.prmNamesOtherServer && faults.noDPoPNonces)
            #expect(faults.refusedScopes == ["transition:generic"])
            #expect(faults.clockSkew == -3600)
            try await SettingsRangeTests.stillServing(sandbox)

            let off = try await SettingsRangeTests.post(
                sandbox,
                """
                {"issuerMismatch": false, "noIssParameter": false, "didDocumentNamesOtherHandle": false,
                 "prmNamesOtherServer": false, "refusedScopes": [], "noDPoPNonces": false, "clockSkew": 0}
                """
            )
            #expect(try off.json()["applied"] as? [String] == names)
            #expect(sandbox.server.configuration.faults == SandboxFaults())
        }
    }

    @Test("the clock skew's bounds are taken, and a whole number written with a fraction")
    func clockSkewBounds() async throws {
        try await withSandbox { sandbox in
            for (body, skew) in [("-86400", -86_400.0), ("86400", 86_400), ("-1", -1), ("3600.0", 3600)] {
                let response = try await SettingsRangeTests.post(sandbox, "{\"clockSkew\": \(body)}")
                #expect(response.status == 200, "\(body): \(response.text)")
                #expect(sandbox.server.configuration.faults.clockSkew == skew)
            }
        }
    }

    @Test("a fault setting of the wrong type or out of range: 400 naming it, nothing applied", arguments: refused)
    func refusedSetting(_ refused: Refused) async throws {
        try await withSandbox { sandbox in
            let before = sandbox.server.configuration
            let response = try await SettingsRangeTests.post(sandbox, refused.body)
            #expect(response.status == 400, "\(response.text)")
            let answer = try response.json()
            #expect(answer["error"] as? String == "InvalidRequest")
            #expect(answer["setting"] as? String == refused.setting)
            let message = try #require(answer["message"] as? String)
            #expect(message.hasPrefix(refused.setting), "\(message)")
            if refused.setting == "clockSkew" {
                #expect(message == "clockSkew must be a whole number of seconds from -86400 to 86400")
            }
            #expect(sandbox.server.configuration == before)
            try await SettingsRangeTests.stillServing(sandbox)
        }
    }

    @Test("one refused fault setting applies none of the others sent with it")
    func nothingAppliedOnRefusal() async throws {
        try await withSandbox { sandbox in
            let response = try await SettingsRangeTests.post(
                sandbox,
                #"{"issuerMismatch": true, "refusedScopes": ["atproto"], "clockSkew": 86401}"#
            )
            #expect(response.status == 400)
            #expect(try response.json()["setting"] as? String == "clockSkew")
            #expect(sandbox.server.configuration.faults == SandboxFaults())
        }
    }

    @Test("a clock skew beyond a day set through the Swift API is held to a day")
    func hugeClockSkewThroughTheSwiftAPI() async throws {
        try await withSandbox { sandbox in
            sandbox.server.updateConfiguration { $0.faults.clockSkew = 1e300 }
            let response = try await sandbox.transport.send(HTTPRequest(url: sandbox.endpoints.plcDirectory))
            #expect(response.status == 200)
            let date = try ClockAndNonceFaultTests.date(of: response)
            #expect(abs(date.timeIntervalSince(sandbox.clock.now()) - 86_400) < 2)
        }
    }
}
